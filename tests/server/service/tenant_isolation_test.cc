// Tenant isolation through the wire: matrix IDs are scoped per tenant, so
// one tenant can neither list, factorize, solve, update nor release
// another's matrices, and gets the same NOT_FOUND as for an ID nobody holds.
#include <cmath>

#include "server/service/tenant_fixture.h"

namespace factord::server::testing {
namespace {

double MaxError(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size()) return INFINITY;
  double e = 0;
  for (size_t i = 0; i < x.size(); ++i) e = std::max(e, std::abs(x[i] - y[i]));
  return e;
}

// The statuses bob gets for every operation on matrix `id`.
std::vector<absl::Status> EveryOperation(client::Client& c,
                                         const std::string& id, int64_t nnz) {
  std::vector<double> values(nnz, 2.0);
  return {c.Factorize(id).status(),
          c.Solve(id, std::vector<std::vector<double>>{{1, 1, 1, 1, 1, 1}})
              .status(),
          c.UpdateValues(id, values).status(), c.Release(id).status()};
}

std::vector<std::string> Ids(client::Client& c) {
  std::vector<std::string> ids;
  absl::StatusOr<std::vector<client::MatrixInfo>> list = c.List();
  EXPECT_TRUE(list.ok()) << list.status();
  if (list.ok()) {
    for (const client::MatrixInfo& m : *list) ids.push_back(m.id);
  }
  return ids;
}

TEST_F(TenantTest, ListShowsOnlyTheCallersMatrices) {
  const CsrMatrix a = Tridiagonal(6);
  ASSERT_TRUE(alice_->Upload(Arrays(a), "a1").ok());
  ASSERT_TRUE(alice_->Upload(Arrays(a), "a2").ok());
  ASSERT_TRUE(bob_->Upload(Arrays(a), "b1").ok());
  std::vector<std::string> alice_ids = Ids(*alice_);
  std::sort(alice_ids.begin(), alice_ids.end());
  EXPECT_EQ(alice_ids, (std::vector<std::string>{"a1", "a2"}));
  EXPECT_EQ(Ids(*bob_), (std::vector<std::string>{"b1"}));
  // ServerInfo shows the caller's own use only.
  absl::StatusOr<client::ServerInfo> info = bob_->Info();
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->cache_entries, 1);
}

TEST_F(TenantTest, AnotherTenantsMatrixIsNotFoundLikeAMissingOne) {
  const CsrMatrix a = Tridiagonal(6);
  ASSERT_TRUE(alice_->Upload(Arrays(a), "secret").ok());
  ASSERT_TRUE(alice_->Factorize("secret").ok());

  const std::vector<absl::Status> while_alice_holds_it =
      EveryOperation(*bob_, "secret", a.nnz());
  for (const absl::Status& s : while_alice_holds_it) {
    EXPECT_EQ(s.code(), absl::StatusCode::kNotFound) << s;
  }
  // Alice's matrix is untouched: still factorized, values unchanged.
  std::vector<double> b = Multiply(a, {1, 2, 3, 4, 5, 6});
  absl::StatusOr<std::vector<client::SolveResult>> x =
      alice_->Solve("secret", std::vector<std::vector<double>>{b});
  ASSERT_TRUE(x.ok()) << x.status();
  EXPECT_LT(MaxError((*x)[0].x, {1, 2, 3, 4, 5, 6}), 1e-10);

  // Once nobody holds "secret", bob sees exactly the same answers: its
  // existence in another tenant leaked nothing.
  ASSERT_TRUE(alice_->Release("secret").ok());
  const std::vector<absl::Status> after =
      EveryOperation(*bob_, "secret", a.nnz());
  EXPECT_EQ(while_alice_holds_it, after);
}

TEST_F(TenantTest, TheSameIdInTwoTenantsIsTwoMatrices) {
  const CsrMatrix small = Tridiagonal(4);
  CsrMatrix scaled = Tridiagonal(6);
  for (double& v : scaled.values) v *= 3;
  ASSERT_TRUE(alice_->Upload(Arrays(small), "kkt").ok());
  ASSERT_TRUE(bob_->Upload(Arrays(scaled), "kkt").ok());
  ASSERT_TRUE(alice_->Factorize("kkt").ok());
  ASSERT_TRUE(bob_->Factorize("kkt").ok());

  const std::vector<double> xa = {1, -1, 2, -2};
  const std::vector<double> xb = {1, 2, 3, 4, 5, 6};
  auto ra = alice_->Solve(
      "kkt", std::vector<std::vector<double>>{Multiply(small, xa)});
  auto rb = bob_->Solve("kkt",
                        std::vector<std::vector<double>>{Multiply(scaled, xb)});
  ASSERT_TRUE(ra.ok()) << ra.status();
  ASSERT_TRUE(rb.ok()) << rb.status();
  EXPECT_LT(MaxError((*ra)[0].x, xa), 1e-10);
  EXPECT_LT(MaxError((*rb)[0].x, xb), 1e-10);

  // Bob's update makes only his factorization stale.
  std::vector<double> values(scaled.values);
  ASSERT_TRUE(bob_->UpdateValues("kkt", values).ok());
  EXPECT_EQ(
      bob_->Solve("kkt", std::vector<std::vector<double>>{xb}).status().code(),
      absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(alice_->Solve("kkt", std::vector<std::vector<double>>{xa}).ok());

  // Alice's release leaves bob's matrix.
  ASSERT_TRUE(alice_->Release("kkt").ok());
  EXPECT_EQ(alice_->Release("kkt").status().code(),
            absl::StatusCode::kNotFound);
  absl::StatusOr<std::vector<client::MatrixInfo>> list = bob_->List();
  ASSERT_TRUE(list.ok());
  ASSERT_EQ(list->size(), 1u);
  EXPECT_EQ((*list)[0].n, 6);
}

TEST_F(TenantTest, AnalysesAreNotSharedAcrossTenants) {
  const CsrMatrix a = Tridiagonal(8, /*lower=*/true);
  ASSERT_TRUE(alice_->Upload(Arrays(a), "one").ok());
  ASSERT_TRUE(alice_->Upload(Arrays(a), "two").ok());
  ASSERT_TRUE(bob_->Upload(Arrays(a), "three").ok());
  client::FactorizeOptions ldlt;
  ldlt.method = "ldlt";
  auto first = alice_->Factorize("one", ldlt);
  auto same_tenant = alice_->Factorize("two", ldlt);
  auto other_tenant = bob_->Factorize("three", ldlt);
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_TRUE(same_tenant.ok()) << same_tenant.status();
  ASSERT_TRUE(other_tenant.ok()) << other_tenant.status();
  EXPECT_FALSE(first->analysis_reused);
  EXPECT_TRUE(same_tenant->analysis_reused);
  // Reuse would tell bob that someone holds a matrix of this pattern.
  EXPECT_FALSE(other_tenant->analysis_reused);
}

}  // namespace
}  // namespace factord::server::testing
