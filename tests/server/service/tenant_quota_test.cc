// The per-tenant cache quota (tenant_cache_bytes) through the wire: a
// tenant over it gets RESOURCE_EXHAUSTED naming the limit and its use;
// other tenants are unaffected; releasing makes room.
#include "server/service/tenant_fixture.h"

namespace factord::server::testing {
namespace {

// Bytes the server accounts for a matrix of order n with nnz entries.
int64_t MatrixBytes(const CsrMatrix& a) { return a.bytes(); }

class TenantQuotaTest : public TenantTest {
 protected:
  void Configure(ServerConfig& config) override {
    config.tenant_cache_bytes =
        2 * MatrixBytes(Tridiagonal(100, /*lower=*/true)) + 100;
  }
};

TEST_F(TenantQuotaTest, OverTheQuotaIsResourceExhaustedNamingLimitAndUse) {
  const CsrMatrix a = Tridiagonal(100, /*lower=*/true);
  const int64_t quota = 2 * MatrixBytes(a) + 100;
  ASSERT_TRUE(alice_->Upload(Arrays(a), "m1").ok());
  ASSERT_TRUE(alice_->Upload(Arrays(a), "m2").ok());
  absl::Status s = alice_->Upload(Arrays(a), "m3").status();
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted) << s;
  const std::string message(s.message());
  EXPECT_NE(message.find("tenant_cache_bytes = " + std::to_string(quota)),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("tenant 'alice' holds " +
                         std::to_string(2 * MatrixBytes(a)) + " bytes"),
            std::string::npos)
      << message;

  // Bob has a quota of his own.
  EXPECT_TRUE(bob_->Upload(Arrays(a), "m3").ok());

  // A factorization that would take alice over the quota is refused too,
  // and leaves her matrix as it was.
  client::FactorizeOptions ldlt;
  ldlt.method = "ldlt";
  absl::StatusOr<client::FactorizeResult> f = alice_->Factorize("m1", ldlt);
  EXPECT_EQ(f.status().code(), absl::StatusCode::kResourceExhausted)
      << f.status();
  EXPECT_NE(std::string(f.status().message()).find("tenant_cache_bytes"),
            std::string::npos)
      << f.status();

  absl::StatusOr<client::ServerInfo> info = alice_->Info();
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->cache_bytes_budget, quota);
  EXPECT_EQ(info->cache_bytes_used, 2 * MatrixBytes(a));

  // A small factorization (the diagonal) does not fit either.
  client::FactorizeOptions jacobi;
  jacobi.method = "jacobi";
  EXPECT_EQ(alice_->Factorize("m1", jacobi).status().code(),
            absl::StatusCode::kResourceExhausted);
  EXPECT_FALSE(alice_->List()->front().factorized);
  // Releasing makes room.
  ASSERT_TRUE(alice_->Release("m2").ok());
  absl::StatusOr<client::MatrixInfo> fits = alice_->Upload(Arrays(a), "m3");
  EXPECT_TRUE(fits.ok()) << fits.status();
}

TEST_F(TenantQuotaTest, AMatrixLargerThanTheQuotaIsRefusedAtItsHeader) {
  const CsrMatrix big = Tridiagonal(400, /*lower=*/true);
  absl::Status s = alice_->Upload(Arrays(big), "big").status();
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted) << s;
  EXPECT_NE(std::string(s.message()).find("per-tenant quota"),
            std::string::npos)
      << s;
}

}  // namespace
}  // namespace factord::server::testing
