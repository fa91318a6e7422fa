// The unary RPCs of the Client and its construction (see factord_client.h).
// The streams are in upload_streams.cc and solve_stream.cc, the re-upload
// around them in reupload.cc.
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "client/channel.h"
#include "client/factord_client.h"
#include "client/grpc_status.h"
#include "client/messages.h"
#include "client/retained_matrices.h"

namespace factord::client {
namespace {

namespace pb = ::factord::v1;
using internal::FromGrpcStatus;
using internal::FromProto;

// Matrices asked for per ListMatrices page (the server allows up to 1000).
constexpr int kListPageSize = 500;

}  // namespace

absl::StatusOr<std::unique_ptr<Client>> Client::Connect(
    absl::string_view target, const ConnectOptions& options) {
  absl::StatusOr<std::unique_ptr<internal::ClientChannel>> channel =
      internal::OpenChannel(target, options);
  if (!channel.ok()) return channel.status();
  return std::unique_ptr<Client>(new Client(*std::move(channel), options));
}

Client::Client(std::unique_ptr<internal::ClientChannel> channel,
               ConnectOptions options)
    : channel_(std::move(channel)),
      options_(std::move(options)),
      retained_(std::make_unique<internal::RetainedMatrices>()) {}

Client::~Client() = default;

absl::StatusOr<FactorizeResult> Client::FactorizeOnce(
    absl::string_view id, const FactorizeOptions& options) {
  if (absl::Status s = internal::CheckMatrixId(id); !s.ok()) return s;
  absl::StatusOr<pb::FactorizeRequest> request =
      internal::ToFactorizeRequest(id, options);
  if (!request.ok()) return request.status();
  grpc::ClientContext context;
  internal::PrepareCall(*channel_, id, &context);
  pb::FactorizeReply reply;
  if (absl::Status s =
          FromGrpcStatus(channel_->stub->Factorize(&context, *request, &reply));
      !s.ok()) {
    return s;
  }
  return FromProto(reply);
}

absl::StatusOr<int64_t> Client::Release(absl::string_view id) {
  if (absl::Status s = internal::CheckMatrixId(id); !s.ok()) return s;
  if (options_.reupload_on_not_found) retained_->Forget(id);
  grpc::ClientContext context;
  internal::PrepareCall(*channel_, id, &context);
  pb::ReleaseRequest request;
  request.set_id(std::string(id));
  pb::ReleaseReply reply;
  if (absl::Status s =
          FromGrpcStatus(channel_->stub->Release(&context, request, &reply));
      !s.ok()) {
    return s;
  }
  return reply.bytes_freed();
}

absl::StatusOr<MatrixInfo> Client::GetMatrix(absl::string_view id) {
  if (absl::Status s = internal::CheckMatrixId(id); !s.ok()) return s;
  grpc::ClientContext context;
  internal::PrepareCall(*channel_, id, &context);
  pb::GetMatrixRequest request;
  request.set_id(std::string(id));
  pb::MatrixInfo reply;
  if (absl::Status s =
          FromGrpcStatus(channel_->stub->GetMatrix(&context, request, &reply));
      !s.ok()) {
    return s;
  }
  return FromProto(reply);
}

absl::StatusOr<std::vector<MatrixInfo>> Client::List() {
  std::vector<MatrixInfo> matrices;
  pb::ListMatricesRequest request;
  request.set_page_size(kListPageSize);
  do {
    grpc::ClientContext context;
    internal::PrepareCall(*channel_, /*matrix_id=*/"", &context);
    pb::ListMatricesReply reply;
    if (absl::Status s = FromGrpcStatus(
            channel_->stub->ListMatrices(&context, request, &reply));
        !s.ok()) {
      return s;
    }
    for (const pb::MatrixInfo& m : reply.matrices()) {
      matrices.push_back(FromProto(m));
    }
    // A server that hands back the token it was given would loop forever.
    if (!reply.next_page_token().empty() &&
        reply.next_page_token() == request.page_token()) {
      return internal::ClientError(
          absl::StatusCode::kInternal, "INTERNAL",
          absl::StrCat("ListMatrices returned the page token it was given ('",
                       reply.next_page_token(), "')"));
    }
    request.set_page_token(reply.next_page_token());
  } while (!request.page_token().empty());
  return matrices;
}

absl::StatusOr<ServerInfo> Client::Info() {
  grpc::ClientContext context;
  internal::PrepareCall(*channel_, /*matrix_id=*/"", &context);
  pb::ServerInfoReply reply;
  if (absl::Status s = FromGrpcStatus(channel_->stub->ServerInfo(
          &context, pb::ServerInfoRequest(), &reply));
      !s.ok()) {
    return s;
  }
  return FromProto(reply);
}

}  // namespace factord::client
