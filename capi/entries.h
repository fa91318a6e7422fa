// Helpers over a handle's matrix entries (handle.h), shared by the calls
// on matrices and the factorize/solve calls. Internal to libfactord_c.
#ifndef FACTORD_CAPI_ENTRIES_H_
#define FACTORD_CAPI_ENTRIES_H_

#include <string>
#include <vector>

#include "capi/handle.h"
#include "factord/factord.h"

namespace factord::capi {

// The wire's structure name as the C enumeration.
factord_structure StructureOf(const std::string& wire);

// Copies `name` into `out`, truncated and NUL-terminated.
void CopyName(const std::string& name, char (&out)[32]);

// Makes sure entry->n and entry->stored_nnz are known: from the layout of
// an upload through this handle, else from the daemon (GetMatrix). On
// failure records it and returns its code.
factord_status EnsureShape(factord_handle* h, const std::string& id,
                           MatrixEntry* entry);

// The stored values of `id` from the caller's `values` (not NULL): through
// the kept layout, or, for a matrix this handle did not upload, taken as
// stored order (as many as the daemon holds).
factord_status StoredValues(factord_handle* h, const std::string& id,
                            MatrixEntry* entry, const double* values,
                            std::vector<double>* stored);

}  // namespace factord::capi

#endif  // FACTORD_CAPI_ENTRIES_H_
