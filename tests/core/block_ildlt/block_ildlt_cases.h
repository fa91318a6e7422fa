// Cases and comparisons for the block_ildlt numeric kernels
// (core/block_ildlt/kernels/cuda/block_ildlt_launch.cu) against the serial
// reference (S1 §IV-B as core/block_ildlt/block_ildlt_numeric.cc runs it for
// Backend::kReference): planted matrices with the edge cases of the
// numeric phase and real matrices of tests/data, run through the same
// scaling and scatter, then compared bit for bit.
#ifndef FACTORD_TESTS_CORE_BLOCK_ILDLT_BLOCK_ILDLT_CASES_H_
#define FACTORD_TESTS_CORE_BLOCK_ILDLT_BLOCK_ILDLT_CASES_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/block_ildlt/block_ildlt.h"
#include "core/block_ildlt/kernels/block_ildlt_device.h"
#include "core/matrix/csr.h"
#include "core/solver/options.h"

namespace factord::emulation_testing {

struct BlockIldltCase {
  std::string name;
  CsrMatrix a;
  FactorOptions options;
  std::shared_ptr<const BlockIldltStructure> s;
};

// The planted cases: a zero pivot in a diagonal block, 2x2 pivots, blocks
// of size 1, a tau that drops a whole column, a fill factor under which the
// leftover pool grants and refuses, levels of one column, equal magnitudes
// cut by Finish, an overflow to Inf. Each name says what it plants.
std::vector<BlockIldltCase> PlantedBlockIldltCases();
// The case of that name (aborts the test binary when there is none).
BlockIldltCase PlantedBlockIldltCase(const std::string& name);
// Real matrices of tests/data: 494_bus.mtx (SPD) and three small KKT
// systems, with the analysis defaults (AMD, cosine blocking, level of fill
// 1, dropping on).
std::vector<BlockIldltCase> RealBlockIldltCases();

// Everything the numeric phase writes.
struct BlockIldltRun {
  std::string error;  // a failed launch or scatter
  std::vector<double> values;
  std::vector<uint8_t> kept;
  std::vector<int32_t> pivot_order;
  std::vector<int8_t> pivot_size;
  std::vector<double> d_diag, d_off;
  std::vector<kernels::BlockColumnCounts> counts;  // per block column
  std::vector<uint8_t> column_status;              // emulated runs only
  BlockIldltStats stats;                           // counts summed
};

// The serial reference: BlockColumnFactorizer column by column, level by
// level, with the level-wise leftover of S1 Alg. 2 (what
// BlockIldltFactor::Create runs for Backend::kReference).
BlockIldltRun ReferenceBlockIldlt(const BlockIldltCase& c);
// Scales, shifts and scatters A into run->values as BlockIldltFactor::Create
// does, sets the other arrays to sentinels (kept to 1) and derives the
// parameters Create passes (force mode); false with run->error set when the
// scatter fails.
bool PrepareBlockIldltRun(const BlockIldltCase& c, BlockIldltRun* run,
                          kernels::BlockIldltNumericParams* params);
// run->stats from run->counts, summed in level order.
void SumBlockIldltCounts(const BlockIldltStructure& s, BlockIldltRun* run);

// "" when every array, count and status (none flagged where the reference's
// columns are finite, one flagged where they are not) agree bit for bit;
// else the first difference.
std::string FirstDifference(const BlockIldltRun& got, const BlockIldltRun& want,
                            const BlockIldltStructure& s);

}  // namespace factord::emulation_testing

#endif  // FACTORD_TESTS_CORE_BLOCK_ILDLT_BLOCK_ILDLT_CASES_H_
