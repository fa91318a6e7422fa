// The factord client: chunking, metadata, and proto <-> plain-struct
// conversion in one place (see factord_client.h).
//
// Chunk sizes are bounded by the worst-case encoded size of each element
// (varint int64: 10 bytes, varint int32 index: 5 bytes, double: 8 bytes) plus
// a fixed allowance for tags, lengths and the small fields, so no request
// message exceeds max_chunk_bytes whatever the values are.
#include "client/factord_client.h"

#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "absl/random/random.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "factord/v1/solver.grpc.pb.h"
#include "grpcpp/grpcpp.h"

namespace factord::client {
namespace {

namespace pb = ::factord::v1;

// Tags, length prefixes, the id and the small fields of one message.
constexpr int64_t kMessageOverheadBytes = 192;
constexpr int64_t kMinChunkBytes = 256;
constexpr int64_t kVarint64Bytes = 10;
constexpr int64_t kIndexBytes = 5;  // non-negative int32 varint
constexpr int64_t kValueBytes = 8;

absl::Status FromGrpc(const grpc::Status& status) {
  if (status.ok()) return absl::OkStatus();
  return absl::Status(static_cast<absl::StatusCode>(status.error_code()),
                      status.error_message());
}

// Name <-> enum tables; the names are the core's (factord/solver/options.h).
template <typename E>
struct NamedValue {
  absl::string_view name;
  E value;
};

constexpr NamedValue<pb::Method> kMethods[] = {
    {"auto", pb::METHOD_AUTO},
    {"none", pb::METHOD_NONE},
    {"jacobi", pb::METHOD_JACOBI},
    {"block_jacobi", pb::METHOD_BLOCK_JACOBI},
    {"ldlt", pb::METHOD_LDLT},
    {"block_ildlt", pb::METHOD_BLOCK_ILDLT},
    {"jacobi_ldlt", pb::METHOD_JACOBI_LDLT},
    {"ic", pb::METHOD_IC},
    {"ilu", pb::METHOD_ILU},
    {"lu", pb::METHOD_LU},
};
constexpr NamedValue<pb::Krylov> kKrylovs[] = {
    {"auto", pb::KRYLOV_AUTO},
    {"none", pb::KRYLOV_NONE},
    {"cg", pb::KRYLOV_CG},
    {"gmres", pb::KRYLOV_GMRES},
    {"sqmr", pb::KRYLOV_SQMR},
    {"idr", pb::KRYLOV_IDR},
    {"bicgstab", pb::KRYLOV_BICGSTAB},
};
constexpr NamedValue<pb::Ordering> kOrderings[] = {
    {"auto", pb::ORDERING_AUTO}, {"natural", pb::ORDERING_NATURAL},
    {"amd", pb::ORDERING_AMD},   {"metis", pb::ORDERING_METIS},
    {"rcm", pb::ORDERING_RCM},   {"gmc", pb::ORDERING_GMC},
};
constexpr NamedValue<pb::Pivoting> kPivotings[] = {
    {"bk", pb::PIVOTING_BUNCH_KAUFMAN},
    {"bunch_kaufman", pb::PIVOTING_BUNCH_KAUFMAN},
    {"static", pb::PIVOTING_STATIC},
    {"rook", pb::PIVOTING_ROOK},
};
constexpr NamedValue<pb::Scaling> kScalings[] = {
    {"auto", pb::SCALING_AUTO},
    {"none", pb::SCALING_NONE},
    {"ruiz", pb::SCALING_RUIZ},
    {"matching", pb::SCALING_MATCHING},
    {"column_norm", pb::SCALING_COLUMN_NORM},
};
constexpr NamedValue<pb::Blocking> kBlockings[] = {
    {"rb", pb::BLOCKING_RB},
    {"br", pb::BLOCKING_BR},
};
constexpr NamedValue<pb::TriangularSolve> kTrisolves[] = {
    {"exact", pb::TRIANGULAR_SOLVE_EXACT},
    {"jacobi", pb::TRIANGULAR_SOLVE_JACOBI},
    {"block_jacobi", pb::TRIANGULAR_SOLVE_BLOCK_JACOBI},
};
constexpr NamedValue<pb::Structure> kStructures[] = {
    {"general", pb::STRUCTURE_GENERAL},
    {"symmetric_lower", pb::STRUCTURE_SYMMETRIC_LOWER},
    {"spd_lower", pb::STRUCTURE_SPD_LOWER},
};
constexpr NamedValue<pb::FactorStatus> kFactorStatuses[] = {
    {"ok", pb::FACTOR_STATUS_OK},
    {"singular", pb::FACTOR_STATUS_SINGULAR},
    {"perturbed", pb::FACTOR_STATUS_PERTURBED},
};
constexpr NamedValue<pb::SolveStatus> kSolveStatuses[] = {
    {"converged", pb::SOLVE_STATUS_CONVERGED},
    {"not_converged", pb::SOLVE_STATUS_NOT_CONVERGED},
    {"breakdown", pb::SOLVE_STATUS_BREAKDOWN},
    {"singular", pb::SOLVE_STATUS_SINGULAR},
};

template <typename E, size_t N>
absl::StatusOr<E> Parse(const NamedValue<E> (&table)[N], absl::string_view what,
                        absl::string_view name) {
  std::vector<absl::string_view> names;
  for (const auto& entry : table) {
    if (entry.name == name) return entry.value;
    names.push_back(entry.name);
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown ", what, " '", name, "' (one of ",
                   absl::StrJoin(names, ", "), ")"));
}

template <typename E, size_t N>
std::string NameOf(const NamedValue<E> (&table)[N], E value) {
  for (const auto& entry : table) {
    if (entry.value == value) return std::string(entry.name);
  }
  return absl::StrCat("unknown(", static_cast<int>(value), ")");
}

MatrixInfo FromProto(const pb::MatrixInfo& p) {
  MatrixInfo info;
  info.id = p.id();
  info.n = p.n();
  info.nnz = p.nnz();
  info.structure = p.structure() == pb::STRUCTURE_UNSPECIFIED
                       ? std::string("unspecified")
                       : NameOf(kStructures, p.structure());
  info.pattern_hash = p.pattern_hash();
  info.bytes = p.bytes();
  info.bytes_received = p.bytes_received();
  info.factorized = p.factorized();
  info.stale = p.stale();
  info.method = p.method();
  return info;
}

Timings FromProto(const pb::Timings& p) {
  return Timings{.preprocess_s = p.preprocess_s(),
                 .analyze_s = p.analyze_s(),
                 .factorize_s = p.factorize_s(),
                 .solve_s = p.solve_s(),
                 .queue_s = p.queue_s()};
}

absl::StatusOr<pb::FactorizeRequest> ToProto(absl::string_view id,
                                             const FactorizeOptions& o) {
  pb::FactorizeRequest request;
  request.set_id(std::string(id));
  absl::StatusOr<pb::Method> method = Parse(kMethods, "method", o.method);
  absl::StatusOr<pb::Ordering> ordering =
      Parse(kOrderings, "ordering", o.ordering);
  absl::StatusOr<pb::Pivoting> pivoting =
      Parse(kPivotings, "pivoting", o.pivoting);
  absl::StatusOr<pb::TriangularSolve> trisolve =
      Parse(kTrisolves, "triangular solve", o.trisolve);
  absl::StatusOr<pb::Scaling> scaling = Parse(kScalings, "scaling", o.scaling);
  absl::StatusOr<pb::Blocking> blocking =
      Parse(kBlockings, "blocking", o.blocking);
  for (const absl::Status& s :
       {method.status(), ordering.status(), pivoting.status(),
        trisolve.status(), scaling.status(), blocking.status()}) {
    if (!s.ok()) return s;
  }
  request.set_method(*method);
  pb::FactorOptions* p = request.mutable_options();
  p->set_ordering(*ordering);
  p->set_pivoting(*pivoting);
  p->set_scaling(*scaling);
  p->set_blocking(*blocking);
  p->set_max_block_size(o.max_block_size);
  if (o.fill_level) p->set_fill_level(*o.fill_level);
  if (o.drop_tolerance) p->set_drop_tolerance(*o.drop_tolerance);
  if (o.fill_factor) p->set_fill_factor(*o.fill_factor);
  p->set_sweeps(o.sweeps);
  if (o.epsilon) p->set_epsilon(*o.epsilon);
  if (o.delta) p->set_delta(*o.delta);
  p->set_trisolve(*trisolve);
  p->set_trisolve_sweeps(o.trisolve_sweeps);
  p->set_shift_first(o.shift_first);
  p->set_shift_rest(o.shift_rest);
  p->set_shift_count(o.shift_count);
  p->set_deterministic(o.deterministic);
  return request;
}

FactorizeResult FromProto(const pb::FactorizeReply& p) {
  FactorizeResult r;
  r.id = p.id();
  r.method = p.method();
  r.factor_status = NameOf(kFactorStatuses, p.factor_status());
  r.inertia = Inertia{.positive = p.inertia().positive(),
                      .negative = p.inertia().negative(),
                      .zero = p.inertia().zero()};
  r.inertia_reliable = p.inertia_reliable();
  r.perturbed_pivots = p.perturbed_pivots();
  r.two_by_two_pivots = p.two_by_two_pivots();
  r.delayed_pivots = p.delayed_pivots();
  r.nnz_factor = p.nnz_factor();
  r.factor_bytes = p.factor_bytes();
  r.analysis_reused = p.analysis_reused();
  r.blocks = p.blocks();
  r.sweep_errors.assign(p.sweep_errors().begin(), p.sweep_errors().end());
  r.timings = FromProto(p.timings());
  r.message = p.message();
  return r;
}

// Entries of a request message body that fit under the chunk budget.
// `id_bytes`: the matrix id a message of the stream may carry. At least 64
// bytes, so that every message makes progress whatever the id's length.
int64_t PayloadBytes(int64_t max_chunk_bytes, size_t id_bytes = 0) {
  return std::max<int64_t>(64, std::max(max_chunk_bytes, kMinChunkBytes) -
                                   kMessageOverheadBytes -
                                   static_cast<int64_t>(id_bytes));
}

absl::Status CheckCsr(const CsrArrays& m) {
  if (m.n < 0) return absl::InvalidArgumentError("n is negative");
  if (static_cast<int64_t>(m.row_ptr.size()) != m.n + 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("row_ptr has ", m.row_ptr.size(),
                     " entries, expected n + 1 = ", m.n + 1));
  }
  if (m.row_ptr[0] != 0) {
    return absl::InvalidArgumentError("row_ptr[0] is not 0");
  }
  for (int64_t i = 0; i < m.n; ++i) {
    if (m.row_ptr[i + 1] < m.row_ptr[i]) {
      return absl::InvalidArgumentError(
          absl::StrCat("row_ptr decreases at row ", i));
    }
  }
  const int64_t nnz = m.row_ptr[m.n];
  if (static_cast<int64_t>(m.col_idx.size()) != nnz ||
      static_cast<int64_t>(m.values.size()) != nnz) {
    return absl::InvalidArgumentError(absl::StrCat(
        "row_ptr[n] = ", nnz, " but col_idx has ", m.col_idx.size(),
        " and values ", m.values.size(), " entries"));
  }
  return absl::OkStatus();
}

// The whole of a PEM file named by ConnectOptions::`option`.
absl::StatusOr<std::string> ReadPem(absl::string_view option,
                                    const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  if (in) text << in.rdbuf();
  if (!in || text.str().empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat(option, ": cannot read '", path, "' (or it is empty)"));
  }
  return text.str();
}

// Plaintext, TLS, or TLS with a client certificate (mutual TLS).
absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> ChannelCredentialsFor(
    const ConnectOptions& o) {
  if (!o.tls && o.tls_ca_file.empty() && o.tls_cert_file.empty() &&
      o.tls_key_file.empty()) {
    return grpc::InsecureChannelCredentials();
  }
  if (o.tls_cert_file.empty() != o.tls_key_file.empty()) {
    return absl::InvalidArgumentError(
        "tls_cert_file and tls_key_file go together (client certificate)");
  }
  grpc::SslCredentialsOptions ssl;
  for (auto [option, path, field] :
       {std::tuple{"tls_ca_file", &o.tls_ca_file, &ssl.pem_root_certs},
        std::tuple{"tls_cert_file", &o.tls_cert_file, &ssl.pem_cert_chain},
        std::tuple{"tls_key_file", &o.tls_key_file, &ssl.pem_private_key}}) {
    if (path->empty()) continue;
    absl::StatusOr<std::string> pem = ReadPem(option, *path);
    if (!pem.ok()) return pem.status();
    *field = *std::move(pem);
  }
  return grpc::SslCredentials(ssl);
}

}  // namespace

std::string NewMatrixId() {
  // RFC 4122 §4.4: 122 random bits, version 4, variant 10.
  thread_local absl::BitGen gen;
  uint64_t hi = absl::Uniform<uint64_t>(gen);
  uint64_t lo = absl::Uniform<uint64_t>(gen);
  hi = (hi & ~uint64_t{0xF000}) | uint64_t{0x4000};
  lo = (lo & ~(uint64_t{0xC} << 60)) | (uint64_t{0x8} << 60);
  return absl::StrFormat("%08x-%04x-%04x-%04x-%012x", hi >> 32,
                         (hi >> 16) & 0xFFFF, hi & 0xFFFF, lo >> 48,
                         lo & 0xFFFFFFFFFFFFull);
}

struct Client::Channel {
  std::shared_ptr<grpc::Channel> channel;
  std::unique_ptr<pb::Solver::Stub> stub;
  std::string token;
};

// The client's copies of its uploaded matrices (reupload_on_not_found).
// Pattern and values are immutable once stored and shared, so a re-upload
// reads a snapshot without holding the lock, and an UpdateValues copies
// only the values.
struct Client::Retained {
  struct Pattern {
    int64_t n = 0;
    std::string structure;
    std::vector<int64_t> row_ptr;
    std::vector<int32_t> col_idx;
  };
  struct Matrix {
    std::shared_ptr<const Pattern> pattern;
    std::shared_ptr<const std::vector<double>> values;
    std::optional<FactorizeOptions> factorize;  // of the last Factorize
    bool factorized = false;  // `values` were factorized (not stale)
  };

  std::mutex mu;
  std::unordered_map<std::string, Matrix> matrices;  // guarded by mu
  int64_t reuploads = 0;                             // guarded by mu
};

Client::Client(std::unique_ptr<Channel> channel, ConnectOptions options)
    : channel_(std::move(channel)),
      options_(std::move(options)),
      retained_(std::make_unique<Retained>()) {}

Client::~Client() = default;

absl::StatusOr<std::unique_ptr<Client>> Client::Connect(
    absl::string_view target, const ConnectOptions& options) {
  if (target.empty()) return absl::InvalidArgumentError("empty server target");
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(static_cast<int>(std::min<int64_t>(
      options.max_receive_message_bytes, std::numeric_limits<int>::max())));
  auto channel = std::make_unique<Channel>();
  absl::StatusOr<std::shared_ptr<grpc::ChannelCredentials>> credentials =
      ChannelCredentialsFor(options);
  if (!credentials.ok()) return credentials.status();
  channel->channel =
      grpc::CreateCustomChannel(std::string(target), *credentials, args);
  channel->stub = pb::Solver::NewStub(channel->channel);
  channel->token = options.token;
  if (channel->token.empty()) {
    if (const char* env = std::getenv("FACTORD_TOKEN"); env != nullptr) {
      channel->token = env;
    }
  }
  if (options.connect_timeout > absl::ZeroDuration()) {
    const auto deadline =
        absl::ToChronoTime(absl::Now() + options.connect_timeout);
    if (!channel->channel->WaitForConnected(deadline)) {
      return absl::UnavailableError(
          absl::StrCat("cannot connect to ", target, " within ",
                       absl::FormatDuration(options.connect_timeout)));
    }
  }
  return std::unique_ptr<Client>(new Client(std::move(channel), options));
}

namespace {

// Sets the deadline, the bearer token and the matrix header of one call.
void Prepare(grpc::ClientContext* context, const ConnectOptions& options,
             const std::string& token, absl::string_view matrix_id) {
  if (options.rpc_timeout != absl::InfiniteDuration()) {
    context->set_deadline(
        absl::ToChronoTime(absl::Now() + options.rpc_timeout));
  }
  if (!token.empty()) {
    context->AddMetadata("authorization", absl::StrCat("Bearer ", token));
  }
  if (!matrix_id.empty()) {
    context->AddMetadata(kMatrixIdHeader, std::string(matrix_id));
  }
}

// Fills `chunk` from (*next_row, *next_entry) on, under `budget` bytes. A
// row's length is sent in the chunk where its first entry is (or would be),
// so the server always knows a row before its entries; a long row's entries
// continue in the following chunks.
void FillCsrChunk(const CsrArrays& m, int64_t budget, int64_t* next_row,
                  int64_t* next_entry, pb::CsrChunk* chunk) {
  const int64_t nnz = m.row_ptr[m.n];
  while (true) {
    if (*next_row < m.n && m.row_ptr[*next_row] <= *next_entry) {
      if (budget < kVarint64Bytes) return;
      // Declare every row that starts here, as many as fit.
      int64_t rows = 0;
      while (*next_row + rows < m.n &&
             m.row_ptr[*next_row + rows] <= *next_entry &&
             (rows + 1) * kVarint64Bytes <= budget) {
        ++rows;
      }
      for (int64_t r = *next_row; r < *next_row + rows; ++r) {
        chunk->add_row_nnz(m.row_ptr[r + 1] - m.row_ptr[r]);
      }
      *next_row += rows;
      budget -= rows * kVarint64Bytes;
    } else if (*next_entry < nnz) {
      const int64_t limit = *next_row < m.n ? m.row_ptr[*next_row] : nnz;
      const int64_t take =
          std::min(limit - *next_entry, budget / (kIndexBytes + kValueBytes));
      if (take <= 0) return;
      chunk->mutable_col_idx()->Add(m.col_idx.data() + *next_entry,
                                    m.col_idx.data() + *next_entry + take);
      chunk->mutable_values()->Add(m.values.data() + *next_entry,
                                   m.values.data() + *next_entry + take);
      *next_entry += take;
      budget -= take * (kIndexBytes + kValueBytes);
    } else {
      return;
    }
  }
}

}  // namespace

absl::StatusOr<MatrixInfo> Client::UploadOnce(const CsrArrays& matrix,
                                              absl::string_view id) {
  if (absl::Status s = CheckCsr(matrix); !s.ok()) return s;
  absl::StatusOr<pb::Structure> structure =
      Parse(kStructures, "structure", matrix.structure);
  if (!structure.ok()) return structure.status();
  const std::string name = id.empty() ? NewMatrixId() : std::string(id);

  grpc::ClientContext context;
  Prepare(&context, options_, channel_->token, name);
  pb::MatrixInfo reply;
  std::unique_ptr<grpc::ClientWriter<pb::UploadRequest>> writer =
      channel_->stub->UploadMatrix(&context, &reply);

  pb::UploadRequest request;
  pb::MatrixHeader* header = request.mutable_header();
  header->set_id(name);
  header->set_n(matrix.n);
  header->set_nnz(matrix.row_ptr[matrix.n]);
  header->set_structure(*structure);
  bool open = writer->Write(request);

  const int64_t budget = PayloadBytes(options_.max_chunk_bytes);
  const int64_t nnz = matrix.row_ptr[matrix.n];
  int64_t next_row = 0, next_entry = 0;
  while (open && (next_row < matrix.n || next_entry < nnz)) {
    request.Clear();
    FillCsrChunk(matrix, budget, &next_row, &next_entry, request.mutable_csr());
    open = writer->Write(request);
  }
  if (open) writer->WritesDone();
  if (absl::Status s = FromGrpc(writer->Finish()); !s.ok()) return s;
  return FromProto(reply);
}

absl::StatusOr<MatrixInfo> Client::UpdateValuesOnce(
    absl::string_view id, std::span<const double> values) {
  if (id.empty()) return absl::InvalidArgumentError("UpdateValues needs an id");
  grpc::ClientContext context;
  Prepare(&context, options_, channel_->token, id);
  pb::MatrixInfo reply;
  std::unique_ptr<grpc::ClientWriter<pb::UpdateValuesRequest>> writer =
      channel_->stub->UpdateValues(&context, &reply);
  const int64_t per_chunk =
      PayloadBytes(options_.max_chunk_bytes, id.size()) / kValueBytes;
  const int64_t total = static_cast<int64_t>(values.size());
  int64_t offset = 0;
  bool open = true;
  do {  // at least one message: it names the matrix
    pb::UpdateValuesRequest request;
    if (offset == 0) request.set_id(std::string(id));
    const int64_t take = std::min(per_chunk, total - offset);
    request.mutable_values()->Add(values.data() + offset,
                                  values.data() + offset + take);
    offset += take;
    open = writer->Write(request);
  } while (open && offset < total);
  if (open) writer->WritesDone();
  if (absl::Status s = FromGrpc(writer->Finish()); !s.ok()) return s;
  return FromProto(reply);
}

absl::StatusOr<FactorizeResult> Client::FactorizeOnce(
    absl::string_view id, const FactorizeOptions& options) {
  absl::StatusOr<pb::FactorizeRequest> request = ToProto(id, options);
  if (!request.ok()) return request.status();
  grpc::ClientContext context;
  Prepare(&context, options_, channel_->token, id);
  pb::FactorizeReply reply;
  if (absl::Status s =
          FromGrpc(channel_->stub->Factorize(&context, *request, &reply));
      !s.ok()) {
    return s;
  }
  return FromProto(reply);
}

absl::StatusOr<std::vector<SolveResult>> Client::Solve(
    absl::string_view id, const std::vector<std::vector<double>>& rhs,
    const SolveOptions& options) {
  std::vector<std::span<const double>> views(rhs.begin(), rhs.end());
  return Solve(id, std::span<const std::span<const double>>(views), options);
}

absl::StatusOr<std::vector<SolveResult>> Client::SolveOnce(
    absl::string_view id, std::span<const std::span<const double>> rhs,
    const SolveOptions& options) {
  absl::StatusOr<pb::Krylov> krylov = Parse(kKrylovs, "krylov", options.krylov);
  if (!krylov.ok()) return krylov.status();
  if (rhs.size() > std::numeric_limits<uint32_t>::max()) {
    return absl::InvalidArgumentError("too many right-hand sides");
  }
  std::vector<SolveResult> results(rhs.size());
  if (rhs.empty()) return results;
  for (size_t k = 0; k < rhs.size(); ++k) results[k].x.resize(rhs[k].size());

  grpc::ClientContext context;
  Prepare(&context, options_, channel_->token, id);
  std::unique_ptr<grpc::ClientReaderWriter<pb::SolveRequest, pb::SolveReply>>
      stream = channel_->stub->Solve(&context);

  // Replies are read on their own thread while the right-hand sides are
  // written, so neither side's flow-control window can stall the other.
  std::vector<bool> done(rhs.size(), false);
  absl::Status reply_error;
  std::thread reader([&] {
    pb::SolveReply reply;
    while (stream->Read(&reply)) {
      if (!reply_error.ok()) continue;  // drain
      const uint32_t k = reply.rhs_index();
      if (k >= results.size() || done[k] || reply.offset() < 0 ||
          reply.offset() + reply.values_size() >
              static_cast<int64_t>(results[k].x.size())) {
        reply_error = absl::InternalError(
            absl::StrCat("malformed solution chunk for right-hand side ", k,
                         " at offset ", reply.offset()));
        context.TryCancel();
        continue;
      }
      SolveResult& r = results[k];
      std::copy(reply.values().begin(), reply.values().end(),
                r.x.begin() + reply.offset());
      if (reply.last()) {
        done[k] = true;
        r.status = NameOf(kSolveStatuses, reply.status());
        r.relative_residual = reply.relative_residual();
        r.backward_error = reply.backward_error();
        r.iterations = reply.iterations();
        r.timings = FromProto(reply.timings());
        r.message = reply.message();
      }
    }
  });

  const int64_t per_chunk =
      PayloadBytes(options_.max_chunk_bytes, id.size()) / kValueBytes;
  bool open = true;
  bool first = true;
  for (size_t k = 0; k < rhs.size() && open; ++k) {
    const int64_t n = static_cast<int64_t>(rhs[k].size());
    int64_t offset = 0;
    do {
      pb::SolveRequest request;
      if (first) {
        request.set_id(std::string(id));
        pb::SolveOptions* o = request.mutable_options();
        o->set_krylov(*krylov);
        o->set_tolerance(options.tolerance);
        o->set_max_iterations(options.max_iterations);
        o->set_restart(options.restart);
        o->set_idr_s(options.idr_s);
        first = false;
      }
      request.set_rhs_index(static_cast<uint32_t>(k));
      request.set_offset(offset);
      const int64_t take = std::min(per_chunk, n - offset);
      request.mutable_values()->Add(rhs[k].data() + offset,
                                    rhs[k].data() + offset + take);
      offset += take;
      request.set_last(offset == n);
      open = stream->Write(request);
    } while (open && offset < n);
  }
  if (open) stream->WritesDone();
  reader.join();
  absl::Status status = FromGrpc(stream->Finish());
  if (!reply_error.ok()) return reply_error;
  if (!status.ok()) return status;
  for (size_t k = 0; k < done.size(); ++k) {
    if (!done[k]) {
      return absl::InternalError(absl::StrCat(
          "the server ended the solve without a result for right-hand side ",
          k));
    }
  }
  return results;
}

absl::StatusOr<int64_t> Client::Release(absl::string_view id) {
  if (options_.reupload_on_not_found) {
    std::lock_guard lock(retained_->mu);
    retained_->matrices.erase(std::string(id));
  }
  grpc::ClientContext context;
  Prepare(&context, options_, channel_->token, id);
  pb::ReleaseRequest request;
  request.set_id(std::string(id));
  pb::ReleaseReply reply;
  if (absl::Status s =
          FromGrpc(channel_->stub->Release(&context, request, &reply));
      !s.ok()) {
    return s;
  }
  return reply.bytes_freed();
}

// ---- Transparent re-upload (reupload_on_not_found) ------------------------

absl::StatusOr<MatrixInfo> Client::Upload(const CsrArrays& matrix,
                                          absl::string_view id) {
  absl::StatusOr<MatrixInfo> info = UploadOnce(matrix, id);
  if (!info.ok() || !options_.reupload_on_not_found) return info;
  auto pattern = std::make_shared<Retained::Pattern>();
  pattern->n = matrix.n;
  pattern->structure = matrix.structure;
  pattern->row_ptr.assign(matrix.row_ptr.begin(), matrix.row_ptr.end());
  pattern->col_idx.assign(matrix.col_idx.begin(), matrix.col_idx.end());
  Retained::Matrix kept{.pattern = std::move(pattern),
                        .values = std::make_shared<const std::vector<double>>(
                            matrix.values.begin(), matrix.values.end())};
  std::lock_guard lock(retained_->mu);
  retained_->matrices.insert_or_assign(info->id, std::move(kept));
  return info;
}

absl::StatusOr<MatrixInfo> Client::UpdateValues(
    absl::string_view id, std::span<const double> values) {
  absl::StatusOr<MatrixInfo> info = UpdateValuesOnce(id, values);
  if (!options_.reupload_on_not_found) return info;
  if (!info.ok() && !ShouldRestore(info.status())) return info;
  {
    std::lock_guard lock(retained_->mu);
    auto it = retained_->matrices.find(std::string(id));
    if (it == retained_->matrices.end()) return info;
    if (static_cast<int64_t>(values.size()) !=
        it->second.pattern->row_ptr.back()) {
      return info;  // the server's verdict on a wrong length stands
    }
    it->second.values = std::make_shared<const std::vector<double>>(
        values.begin(), values.end());
    it->second.factorized = false;  // the factorization is stale now
  }
  if (info.ok()) return info;
  // The server lost the matrix: the upload of the new values is the update.
  return Restore(id, /*refactorize=*/false);
}

absl::StatusOr<FactorizeResult> Client::Factorize(
    absl::string_view id, const FactorizeOptions& options) {
  absl::StatusOr<FactorizeResult> result = FactorizeOnce(id, options);
  if (ShouldRestore(result.status())) {
    if (!Restore(id, /*refactorize=*/false).ok()) return result;
    result = FactorizeOnce(id, options);
  }
  if (result.ok() && options_.reupload_on_not_found) {
    std::lock_guard lock(retained_->mu);
    auto it = retained_->matrices.find(std::string(id));
    if (it != retained_->matrices.end()) {
      it->second.factorize = options;
      it->second.factorized = true;
    }
  }
  return result;
}

absl::StatusOr<std::vector<SolveResult>> Client::Solve(
    absl::string_view id, std::span<const std::span<const double>> rhs,
    const SolveOptions& options) {
  absl::StatusOr<std::vector<SolveResult>> results =
      SolveOnce(id, rhs, options);
  if (!ShouldRestore(results.status())) return results;
  if (!Restore(id, /*refactorize=*/true).ok()) return results;
  return SolveOnce(id, rhs, options);
}

absl::StatusOr<MatrixInfo> Client::Restore(absl::string_view id,
                                           bool refactorize) {
  Retained::Matrix kept;
  {
    std::lock_guard lock(retained_->mu);
    auto it = retained_->matrices.find(std::string(id));
    if (it == retained_->matrices.end()) {
      return absl::NotFoundError(
          absl::StrCat("no copy of matrix '", id, "' kept by the client"));
    }
    kept = it->second;
    ++retained_->reuploads;
  }
  const CsrArrays arrays{.n = kept.pattern->n,
                         .structure = kept.pattern->structure,
                         .row_ptr = kept.pattern->row_ptr,
                         .col_idx = kept.pattern->col_idx,
                         .values = *kept.values};
  absl::StatusOr<MatrixInfo> info = UploadOnce(arrays, id);
  if (!info.ok() || !refactorize || !kept.factorized || !kept.factorize) {
    return info;
  }
  absl::StatusOr<FactorizeResult> factor = FactorizeOnce(id, *kept.factorize);
  if (!factor.ok()) return factor.status();
  return info;
}

bool Client::ShouldRestore(const absl::Status& status) const {
  return options_.reupload_on_not_found && absl::IsNotFound(status);
}

int64_t Client::reuploads() const {
  std::lock_guard lock(retained_->mu);
  return retained_->reuploads;
}

absl::StatusOr<std::vector<MatrixInfo>> Client::List() {
  grpc::ClientContext context;
  Prepare(&context, options_, channel_->token, "");
  pb::ListMatricesReply reply;
  if (absl::Status s = FromGrpc(channel_->stub->ListMatrices(
          &context, pb::ListMatricesRequest(), &reply));
      !s.ok()) {
    return s;
  }
  std::vector<MatrixInfo> matrices;
  for (const pb::MatrixInfo& m : reply.matrices()) {
    matrices.push_back(FromProto(m));
  }
  return matrices;
}

absl::StatusOr<ServerInfo> Client::Info() {
  grpc::ClientContext context;
  Prepare(&context, options_, channel_->token, "");
  pb::ServerInfoReply reply;
  if (absl::Status s = FromGrpc(channel_->stub->ServerInfo(
          &context, pb::ServerInfoRequest(), &reply));
      !s.ok()) {
    return s;
  }
  ServerInfo info;
  info.version = reply.version();
  info.backend = reply.backend();
  info.device = reply.device();
  info.cache_bytes_used = reply.cache_bytes_used();
  info.cache_bytes_budget = reply.cache_bytes_budget();
  info.cache_entries = reply.cache_entries();
  info.max_n = reply.max_n();
  info.max_nnz = reply.max_nnz();
  info.max_message_bytes = reply.max_message_bytes();
  info.threads = reply.threads();
  info.workers = reply.workers();
  info.methods.assign(reply.methods().begin(), reply.methods().end());
  return info;
}

}  // namespace factord::client
