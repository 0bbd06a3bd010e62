#pragma once
// The cost model of SyncEvery: with one sync every K steps, a step costs T(K) = t_op + t_sync / K.
// A pure function (standard library only), so that a test without a GPU can check it.

#include <cstddef>
#include <stdexcept>
#include <vector>

namespace sync_bench {

struct SyncCostFit {
  double t_op = 0.0;    // cost of a step without its share of syncs (the intercept)
  double t_sync = 0.0;  // cost of one sync (the slope in 1/K)
  double r2 = 0.0;      // coefficient of determination of the fit, 1 for an exact line
};

// Ordinary least squares of t[i] = t_op + t_sync / k[i]. Throws std::invalid_argument unless the
// vectors have the same size and hold at least two distinct K, all positive.
inline SyncCostFit fit_sync_cost(const std::vector<double>& k, const std::vector<double>& t) {
  if (k.size() != t.size()) throw std::invalid_argument("fit_sync_cost: K and T differ in size");
  const std::size_t n = k.size();
  double mean_x = 0.0, mean_y = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!(k[i] > 0.0)) throw std::invalid_argument("fit_sync_cost: K must be positive");
    mean_x += 1.0 / k[i];
    mean_y += t[i];
  }
  if (n < 2) throw std::invalid_argument("fit_sync_cost: needs at least two points");
  mean_x /= n;
  mean_y /= n;
  double sxx = 0.0, sxy = 0.0, syy = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double dx = 1.0 / k[i] - mean_x, dy = t[i] - mean_y;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  if (!(sxx > 0.0)) throw std::invalid_argument("fit_sync_cost: needs two distinct K");
  SyncCostFit fit;
  fit.t_sync = sxy / sxx;
  fit.t_op = mean_y - fit.t_sync * mean_x;
  double residual = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double e = t[i] - (fit.t_op + fit.t_sync / k[i]);
    residual += e * e;
  }
  // Every T equal: a flat line explains it all when it fits exactly.
  fit.r2 = syy > 0.0 ? 1.0 - residual / syy : (residual == 0.0 ? 1.0 : 0.0);
  return fit;
}

}  // namespace sync_bench
