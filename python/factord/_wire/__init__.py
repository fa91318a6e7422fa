"""Generated wire modules of factord.v1 (not part of the public API).

The build (python/CMakeLists.txt) copies proto/factord/v1/*.proto and
proto/google/rpc/*.proto under a staging root as factord/_wire/v1/ and
factord/_wire/google/rpc/, then runs protoc with grpc_python_plugin on
them, so the generated modules sit here:

    factord._wire.v1.solver_pb2, solver_pb2_grpc, errors_pb2
    factord._wire.google.rpc.status_pb2, error_details_pb2

Staging under this path, rather than generating from proto/ as is, makes
the import the gRPC plugin writes into solver_pb2_grpc
(``from factord._wire.v1 import solver_pb2``) resolve inside this package,
so no generated file is rewritten and nothing lands in the top-level
``factord`` or ``google`` namespaces. The proto packages (factord.v1,
google.rpc), hence the message names and the RPC paths on the wire, are
unchanged.
"""
