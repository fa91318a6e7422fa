// Matrices through the C API: upload (the caller's layout converted and its
// entry map kept), values in the caller's order, release, what the daemon
// holds, and the handle's counters.
#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "capi/entries.h"
#include "capi/handle.h"
#include "capi/last_error.h"
#include "capi/matrix_layout.h"
#include "client/factord_client.h"
#include "factord/factord.h"

namespace factord::capi {

factord_structure StructureOf(const std::string& wire) {
  if (wire == "symmetric_lower") return FACTORD_SYMMETRIC;
  if (wire == "spd_lower") return FACTORD_SPD;
  return FACTORD_GENERAL;
}

void CopyName(const std::string& name, char (&out)[32]) {
  const size_t n = std::min(name.size(), sizeof(out) - 1);
  std::memcpy(out, name.data(), n);
  out[n] = '\0';
}

factord_status EnsureShape(factord_handle* h, const std::string& id,
                           MatrixEntry* entry) {
  {
    std::lock_guard<std::mutex> lock(entry->mutex);
    if (entry->n > 0) return FACTORD_OK;
  }
  absl::StatusOr<client::MatrixInfo> info =
      h->EndpointOf(entry)->GetMatrix(id);
  if (!info.ok()) return FailWith(info.status(), absl::StrCat("'", id, "'"));
  std::lock_guard<std::mutex> lock(entry->mutex);
  if (entry->n == 0) {
    entry->n = info->n;
    entry->stored_nnz = info->nnz;
  }
  return FACTORD_OK;
}

factord_status StoredValues(factord_handle* h, const std::string& id,
                            MatrixEntry* entry, const double* values,
                            std::vector<double>* stored) {
  std::shared_ptr<const MatrixLayout> layout;
  {
    std::lock_guard<std::mutex> lock(entry->mutex);
    layout = entry->layout;
  }
  if (layout) {
    layout->ToStored(values, stored);
    return FACTORD_OK;
  }
  if (factord_status s = EnsureShape(h, id, entry); s != FACTORD_OK) return s;
  int64_t nnz;
  {
    std::lock_guard<std::mutex> lock(entry->mutex);
    nnz = entry->stored_nnz;
  }
  stored->assign(values, values + nnz);
  return FACTORD_OK;
}

}  // namespace factord::capi

extern "C" {

FACTORD_C_EXPORT void factord_matrix_init(factord_matrix* matrix) {
  if (matrix == nullptr) return;
  *matrix = factord_matrix{};
  matrix->format = FACTORD_CSR;
  matrix->structure = FACTORD_GENERAL;
  matrix->triangle = FACTORD_FULL;
}

FACTORD_C_EXPORT factord_status factord_upload(factord_handle* handle,
                                               const factord_matrix* matrix,
                                               const char* id, unsigned flags,
                                               char* id_out, size_t id_out_size,
                                               uint64_t* generation) {
  using namespace factord::capi;
  return Guarded([&]() -> factord_status {
    if (handle == nullptr) return BadRequest("handle is NULL");
    if (matrix == nullptr) return BadRequest("matrix is NULL");
    if ((flags & ~(FACTORD_UPLOAD_REPLACE | FACTORD_UPLOAD_SUM_DUPLICATES)) !=
        0) {
      return BadRequest(
          absl::StrCat("unknown upload flags 0x", absl::Hex(flags)));
    }
    const bool named = id != nullptr && id[0] != '\0';
    std::string name = named ? id : factord::client::NewMatrixId();
    if (id_out == nullptr ? !named : id_out_size < name.size() + 1) {
      return Fail(FACTORD_ERR_BUFFER_TOO_SMALL, "BUFFER_TOO_SMALL",
                  absl::StrCat("id_out needs ", name.size() + 1,
                               " bytes for the ID", named ? "" : " (a UUID)",
                               ", got ", id_out == nullptr ? 0 : id_out_size));
    }
    auto layout = std::make_shared<MatrixLayout>();
    Failure failure;
    if (!BuildLayout(*matrix, (flags & FACTORD_UPLOAD_SUM_DUPLICATES) != 0,
                     layout.get(), &failure)) {
      return Fail(failure);
    }
    std::vector<double> values;
    layout->ToStored(matrix->values, &values);
    factord::client::CsrArrays arrays{layout->n, layout->wire_structure,
                                      layout->row_ptr, layout->col_idx, values};
    factord::client::UploadOptions upload;
    upload.replace = (flags & FACTORD_UPLOAD_REPLACE) != 0;

    std::shared_ptr<MatrixEntry> entry = handle->Entry(name);
    std::lock_guard<std::mutex> uploading(entry->upload_mutex);
    factord::client::Endpoint* endpoint = handle->EndpointForUpload(layout->n);
    absl::StatusOr<factord::client::MatrixInfo> info = endpoint->Upload(arrays, name, upload);
    if (!info.ok()) {
      return FailWith(info.status(), absl::StrCat("upload '", name, "'"));
    }
    factord::client::Endpoint* previous;
    {
      std::lock_guard<std::mutex> lock(entry->mutex);
      previous = entry->endpoint;
      entry->endpoint = endpoint;
      entry->n = layout->n;
      entry->stored_nnz = layout->stored_nnz();
      entry->layout = std::move(layout);
      entry->factor_report.reset();
      entry->solve_reports.reset();
    }
    // A replacing upload of another order may have moved the matrix across
    // the size threshold: the copy left behind is freed.
    if (previous != nullptr && previous != endpoint) {
      (void)previous->Release(name);
    }
    ++handle->uploads;
    if (id_out != nullptr) {
      std::memcpy(id_out, name.c_str(), name.size() + 1);
    }
    if (generation != nullptr) *generation = info->generation;
    return FACTORD_OK;
  });
}

FACTORD_C_EXPORT factord_status factord_update_values(
    factord_handle* handle, const char* id, const double* values,
    uint64_t expected_generation, uint64_t* generation) {
  using namespace factord::capi;
  return Guarded([&]() -> factord_status {
    if (handle == nullptr) return BadRequest("handle is NULL");
    if (id == nullptr || id[0] == '\0')
      return BadRequest("id is NULL or empty");
    if (values == nullptr) return BadRequest("values is NULL");
    const std::string name = id;
    std::shared_ptr<MatrixEntry> entry = handle->Entry(name);
    std::vector<double> stored;
    if (factord_status s =
            StoredValues(handle, name, entry.get(), values, &stored);
        s != FACTORD_OK) {
      return s;
    }
    absl::StatusOr<factord::client::MatrixInfo> info = handle->EndpointOf(entry.get())
          ->UpdateValues(name, stored, expected_generation);
    if (!info.ok()) {
      return FailWith(info.status(), absl::StrCat("update '", name, "'"));
    }
    if (generation != nullptr) *generation = info->generation;
    return FACTORD_OK;
  });
}

FACTORD_C_EXPORT factord_status factord_release(factord_handle* handle,
                                                const char* id,
                                                int64_t* bytes_freed) {
  using namespace factord::capi;
  return Guarded([&]() -> factord_status {
    if (handle == nullptr) return BadRequest("handle is NULL");
    if (id == nullptr || id[0] == '\0')
      return BadRequest("id is NULL or empty");
    const std::string name = id;
    factord::client::Endpoint* endpoint =
        handle->EndpointOf(handle->FindEntry(name).get());
    absl::StatusOr<int64_t> freed =
        endpoint->Release(name);
    if (freed.ok() || absl::IsNotFound(freed.status())) {
      std::lock_guard<std::mutex> lock(handle->mutex);
      handle->matrices.erase(name);
    }
    if (!freed.ok()) {
      return FailWith(freed.status(), absl::StrCat("release '", name, "'"));
    }
    if (bytes_freed != nullptr) *bytes_freed = *freed;
    return FACTORD_OK;
  });
}

FACTORD_C_EXPORT factord_status factord_get_matrix(factord_handle* handle,
                                                   const char* id,
                                                   factord_matrix_info* info) {
  using namespace factord::capi;
  return Guarded([&]() -> factord_status {
    if (handle == nullptr) return BadRequest("handle is NULL");
    if (id == nullptr || id[0] == '\0')
      return BadRequest("id is NULL or empty");
    if (info == nullptr) return BadRequest("info is NULL");
    const std::string name = id;
    factord::client::Endpoint* endpoint =
        handle->EndpointOf(handle->FindEntry(name).get());
    absl::StatusOr<factord::client::MatrixInfo> m =
        endpoint->GetMatrix(name);
    if (!m.ok()) return FailWith(m.status(), absl::StrCat("'", name, "'"));
    factord_matrix_info out{};
    out.n = m->n;
    out.nnz = m->nnz;
    out.caller_nnz = -1;
    {
      std::lock_guard<std::mutex> lock(handle->mutex);
      auto it = handle->matrices.find(name);
      if (it != handle->matrices.end()) {
        std::lock_guard<std::mutex> entry_lock(it->second->mutex);
        if (it->second->layout) {
          out.caller_nnz = it->second->layout->caller_nnz();
        }
      }
    }
    out.structure = StructureOf(m->structure);
    out.generation = m->generation;
    out.factorized_generation = m->factorized_generation;
    out.factorized = m->factorized ? 1 : 0;
    out.stale = m->stale ? 1 : 0;
    out.bytes = m->bytes;
    CopyName(m->method, out.method);
    *info = out;
    return FACTORD_OK;
  });
}

FACTORD_C_EXPORT factord_status factord_counters(factord_handle* handle,
                                                 int64_t* uploads,
                                                 int64_t* reuploads) {
  using namespace factord::capi;
  if (handle == nullptr) return BadRequest("handle is NULL");
  if (uploads != nullptr) *uploads = handle->uploads.load();
  if (reuploads != nullptr) {
    *reuploads = handle->remote != nullptr ? handle->remote->reuploads() : 0;
  }
  return FACTORD_OK;
}

}  // extern "C"
