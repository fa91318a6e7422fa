#include "server/cache/analysis_cache.h"

#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace factord::server {

std::string AnalysisCache::Key(const CsrMatrix& a, uint64_t pattern_hash,
                               const FactorOptions& options) {
  return absl::StrCat(absl::StrFormat("%016x", pattern_hash), "/n", a.rows,
                      "/nnz", a.nnz(), "/", StructureName(a.structure), "/",
                      options.AnalysisKey());
}

std::shared_ptr<const Analysis> AnalysisCache::Find(const std::string& key) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = analyses_.find(key);
  if (it == analyses_.end()) return nullptr;
  std::shared_ptr<const Analysis> analysis = it->second.lock();
  if (analysis == nullptr) analyses_.erase(it);
  return analysis;
}

void AnalysisCache::Insert(const std::string& key,
                           std::shared_ptr<const Analysis> analysis) {
  std::lock_guard<std::mutex> lock(mu_);
  absl::erase_if(analyses_, [](const auto& kv) { return kv.second.expired(); });
  analyses_[key] = std::move(analysis);
}

int64_t AnalysisCache::size() const {
  std::lock_guard<std::mutex> lock(mu_);
  int64_t live = 0;
  for (const auto& [key, weak] : analyses_) live += weak.expired() ? 0 : 1;
  return live;
}

}  // namespace factord::server
