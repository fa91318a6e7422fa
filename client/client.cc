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
  return std::unique_ptr<Client>(
      new Client(*std::move(channel), options, std::string(target)));
}

Client::Client(std::unique_ptr<internal::ClientChannel> channel,
               ConnectOptions options, std::string target)
    : channel_(std::move(channel)),
      options_(std::move(options)),
      target_(std::move(target)),
      retained_(std::make_unique<internal::RetainedMatrices>()) {}

Client::~Client() = default;

std::string Client::location() const { return target_; }

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
  // A matrix this client uploaded and the server lost (restart, eviction,
  // moved to another daemon): there is nothing left to free.
  const bool kept =
      options_.reupload_on_not_found && retained_->Find(id).has_value();
  if (options_.reupload_on_not_found) retained_->Forget(id);
  pb::ReleaseRequest request;
  request.set_id(std::string(id));
  int64_t freed = 0;
  absl::Status status = WithRetries([&](int attempt) -> absl::Status {
    grpc::ClientContext context;
    internal::PrepareCall(*channel_, id, &context);
    pb::ReleaseReply reply;
    absl::Status s =
        FromGrpcStatus(channel_->stub->Release(&context, request, &reply));
    // A repeat that finds nothing: the first attempt released it.
    if (absl::IsNotFound(s) && (kept || attempt > 1)) return absl::OkStatus();
    if (s.ok()) freed = reply.bytes_freed();
    return s;
  });
  if (!status.ok()) return status;
  return freed;
}

absl::StatusOr<MatrixInfo> Client::GetMatrix(absl::string_view id) {
  if (absl::Status s = internal::CheckMatrixId(id); !s.ok()) return s;
  pb::GetMatrixRequest request;
  request.set_id(std::string(id));
  pb::MatrixInfo reply;
  if (absl::Status s = WithRetries([&](int) {
        grpc::ClientContext context;
        internal::PrepareCall(*channel_, id, &context);
        return FromGrpcStatus(
            channel_->stub->GetMatrix(&context, request, &reply));
      });
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
    pb::ListMatricesReply reply;
    if (absl::Status s = WithRetries([&](int) {
          grpc::ClientContext context;
          internal::PrepareCall(*channel_, /*matrix_id=*/"", &context);
          return FromGrpcStatus(
              channel_->stub->ListMatrices(&context, request, &reply));
        });
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
  pb::ServerInfoReply reply;
  if (absl::Status s = WithRetries([&](int) {
        grpc::ClientContext context;
        internal::PrepareCall(*channel_, /*matrix_id=*/"", &context);
        return FromGrpcStatus(channel_->stub->ServerInfo(
            &context, pb::ServerInfoRequest(), &reply));
      });
      !s.ok()) {
    return s;
  }
  return FromProto(reply);
}

}  // namespace factord::client
