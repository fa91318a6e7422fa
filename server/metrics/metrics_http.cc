#include "server/metrics/metrics_http.h"

#include <chrono>
#include <thread>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "httplib.h"
#include "server/address_in_use.h"

namespace factord::server {

struct MetricsHttpServer::Impl {
  httplib::Server http;
  std::thread thread;
};

absl::StatusOr<std::unique_ptr<MetricsHttpServer>> MetricsHttpServer::Start(
    const std::string& listen, Metrics* metrics, std::function<bool()> ready) {
  const size_t colon = listen.rfind(':');
  int port = 0;
  if (colon == std::string::npos ||
      !absl::SimpleAtoi(absl::string_view(listen).substr(colon + 1), &port) ||
      port < 0 || port > 65535) {
    return absl::InvalidArgumentError(
        absl::StrCat("metrics address '", listen, "' is not host:port"));
  }
  std::string host = listen.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  auto impl = std::make_unique<Impl>();
  // cpp-httplib's default sets SO_REUSEPORT, with which a second daemon
  // would bind the same metrics port and share it; SO_REUSEADDR alone
  // still rebinds a port left in TIME_WAIT.
  impl->http.set_socket_options([](socket_t sock) {
    const int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
  });
  // Scrapes are rare and cheap: two threads are plenty.
  impl->http.new_task_queue = [] { return new httplib::ThreadPool(2); };
  impl->http.Get("/metrics",
                 [metrics](const httplib::Request&, httplib::Response& res) {
                   res.set_content(metrics->Scrape(),
                                   "text/plain; version=0.0.4; charset=utf-8");
                 });
  if (ready) {
    impl->http.Get("/ready",
                   [ready = std::move(ready)](const httplib::Request&,
                                              httplib::Response& res) {
                     const bool serving = ready();
                     res.status = serving ? 200 : 503;
                     res.set_content(serving ? "SERVING\n" : "NOT_SERVING\n",
                                     "text/plain; charset=utf-8");
                   });
  }
  if (port == 0) {
    port = impl->http.bind_to_any_port(host);
    if (port < 0) {
      return absl::UnavailableError(
          absl::StrCat("cannot bind the metrics port on ", host));
    }
  } else if (!impl->http.bind_to_port(host, port)) {
    return absl::UnavailableError(absl::StrCat(
        "cannot bind the metrics address ", listen,
        AddressInUse(listen) ? ": address in use (another factord or another "
                               "program holds it)"
                             : ""));
  }
  httplib::Server* http = &impl->http;
  impl->thread = std::thread([http] { http->listen_after_bind(); });
  // httplib 0.11 has no wait_until_ready(): poll until the accept loop runs.
  for (int i = 0; i < 2000 && !http->is_running(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return std::unique_ptr<MetricsHttpServer>(
      new MetricsHttpServer(std::move(impl), port));
}

MetricsHttpServer::MetricsHttpServer(std::unique_ptr<Impl> impl, int port)
    : impl_(std::move(impl)), port_(port) {}

MetricsHttpServer::~MetricsHttpServer() { Stop(); }

void MetricsHttpServer::Stop() {
  if (impl_ == nullptr) return;
  impl_->http.stop();
  if (impl_->thread.joinable()) impl_->thread.join();
  impl_.reset();
}

}  // namespace factord::server
