// libFuzzer target: request validation, i.e. what the upload path does
// with arrays from the wire (core/matrix/{validate,
// assemble}.h). The bytes are decoded into sizes, a structure and index /
// value arrays, then fed to one of AssembleFromCoo, CsrBuilder (in chunks,
// as the upload stream does) or ValidateCsr on raw CSR arrays. Every
// matrix accepted by the assemblers must pass ValidateCsr; crashes,
// sanitizer reports and an invalid accepted matrix are findings.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "core/matrix/assemble.h"
#include "core/matrix/csr.h"
#include "core/matrix/validate.h"

namespace {

constexpr int64_t kMaxDimension = 1 << 12;
constexpr int64_t kMaxNnz = 1 << 14;

void CheckAccepted(const absl::StatusOr<factord::CsrMatrix>& a) {
  if (!a.ok()) return;
  const absl::Status valid = factord::ValidateCsr(*a);
  if (!valid.ok()) {
    std::fprintf(stderr, "assembler accepted an invalid matrix: %s\n",
                 valid.ToString().c_str());
    std::abort();
  }
}

std::vector<int32_t> Indices(FuzzedDataProvider& in, size_t count,
                             int64_t bound) {
  std::vector<int32_t> out(count);
  for (int32_t& i : out) {
    i = in.ConsumeBool() ? in.ConsumeIntegral<int32_t>()
                         : in.ConsumeIntegralInRange<int32_t>(
                               0, static_cast<int32_t>(bound < 0 ? 0 : bound));
  }
  return out;
}

std::vector<double> Values(FuzzedDataProvider& in, size_t count) {
  std::vector<double> out(count);
  for (double& v : out) v = in.ConsumeFloatingPoint<double>();
  return out;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  const int mode = in.ConsumeIntegralInRange<int>(0, 2);
  const auto structure =
      static_cast<factord::Structure>(in.ConsumeIntegralInRange<int>(0, 2));
  const int64_t rows =
      in.ConsumeIntegralInRange<int64_t>(-2, kMaxDimension + 2);
  const int64_t cols = in.ConsumeBool() ? rows
                                        : in.ConsumeIntegralInRange<int64_t>(
                                              -2, kMaxDimension + 2);
  const size_t nnz = in.ConsumeIntegralInRange<size_t>(0, 256);
  factord::AssemblyLimits limits;
  limits.max_dimension = kMaxDimension;
  limits.max_nnz = kMaxNnz;

  if (mode == 0) {
    const std::vector<int32_t> row_idx = Indices(in, nnz, rows);
    const std::vector<int32_t> col_idx =
        Indices(in, in.ConsumeBool() ? nnz : nnz + 1, cols);
    const std::vector<double> values = Values(in, nnz);
    CheckAccepted(factord::AssembleFromCoo(rows, cols, structure, row_idx,
                                           col_idx, values, limits));
  } else if (mode == 1) {
    const int64_t declared =
        in.ConsumeIntegralInRange<int64_t>(-1, kMaxNnz + 1);
    absl::StatusOr<factord::CsrBuilder> builder =
        factord::CsrBuilder::Create(rows, cols, structure, declared, limits);
    if (!builder.ok()) return 0;
    const int chunks = in.ConsumeIntegralInRange<int>(0, 8);
    for (int c = 0; c < chunks; ++c) {
      std::vector<int64_t> row_nnz(in.ConsumeIntegralInRange<size_t>(0, 16));
      for (int64_t& r : row_nnz) r = in.ConsumeIntegralInRange<int64_t>(-1, 40);
      const size_t entries = in.ConsumeIntegralInRange<size_t>(0, 64);
      const std::vector<int32_t> col_idx = Indices(in, entries, cols);
      const std::vector<double> values =
          Values(in, in.ConsumeBool() ? entries : entries + 1);
      (void)builder->Append(row_nnz, col_idx, values);
    }
    CheckAccepted(builder->Finish());
  } else {
    factord::CsrMatrix a;
    a.rows = rows;
    a.cols = cols;
    a.structure = structure;
    a.row_ptr.resize(in.ConsumeIntegralInRange<size_t>(0, 64));
    for (int64_t& p : a.row_ptr)
      p = in.ConsumeIntegralInRange<int64_t>(-1, 300);
    a.col_idx = Indices(in, nnz, cols);
    a.values = Values(in, in.ConsumeBool() ? nnz : nnz + 1);
    (void)factord::ValidateCsr(a);
  }
  return 0;
}
