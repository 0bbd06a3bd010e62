#include "gemm.hpp"

#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda_check.hpp"
#include "cuda_resources.hpp"
#include "device_kernels.cuh"
#include "reference_error.hpp"
#include "unsupported.hpp"

namespace sync_bench {
namespace {

// cuBLAS's recommended workspace on Hopper; set explicitly so that no call allocates on its own.
constexpr std::size_t kWorkspaceBytes = 32u << 20;
constexpr std::size_t kValidationSamples = 2048;
// The heuristic's best algorithm can still be refused at cublasLtMatmul (NOT_SUPPORTED); the
// cuBLASLt samples' advice is to ask for several and keep the first that runs.
constexpr int kAlgoCandidates = 8;

template <class T, auto Destroy>
struct LtDeleter {
  void operator()(T p) const noexcept { CUBLAS_CHECK_NOEXCEPT(Destroy(p)); }
};
using LtDesc = std::unique_ptr<std::remove_pointer_t<cublasLtMatmulDesc_t>,
                               LtDeleter<cublasLtMatmulDesc_t, cublasLtMatmulDescDestroy>>;
using LtLayout = std::unique_ptr<std::remove_pointer_t<cublasLtMatrixLayout_t>,
                                 LtDeleter<cublasLtMatrixLayout_t, cublasLtMatrixLayoutDestroy>>;
using LtPreference =
    std::unique_ptr<std::remove_pointer_t<cublasLtMatmulPreference_t>,
                    LtDeleter<cublasLtMatmulPreference_t, cublasLtMatmulPreferenceDestroy>>;

// A host-side LCG: the sampled indices are the same on every run.
std::vector<std::int64_t> sample_indices(int n) {
  const std::int64_t total = std::int64_t(n) * n;
  std::vector<std::int64_t> idx = {0, total - 1, n - 1, total - n};
  std::uint64_t state = 0x9e3779b97f4a7c15ULL;
  while (idx.size() < kValidationSamples) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    idx.push_back(static_cast<std::int64_t>((state >> 17) % static_cast<std::uint64_t>(total)));
  }
  return idx;
}

}  // namespace

struct Gemm::Impl {
  Dtype dtype;
  Backend backend;
  int n;
  cudaStream_t stream;
  DeviceBuffer<std::byte> a, b, b_negated, c, workspace;
  std::optional<CublasHandle> blas;  // only the backend's own handle is made
  std::optional<CublasLtHandle> lt;
  LtDesc lt_desc;
  LtLayout lt_layout;      // A and B: square, ld = n
  LtLayout lt_out_layout;  // C (and D): square, ld = n, the output dtype
  cublasLtMatmulAlgo_t lt_algo{};
  std::int64_t probe_index = 0;
  double probe_value = 0.0;

  // fp8: the per-tensor scales of A and B (1.0 each), each in its own allocation so that each
  // pointer has cudaMalloc's alignment.
  DeviceBuffer<float> a_scale, b_scale;

  std::size_t elements() const { return std::size_t(n) * n; }
  std::size_t input_bytes() const { return elements() * traits(dtype).element_bytes; }
  std::size_t output_bytes() const {
    return elements() * traits(output_dtype(dtype)).element_bytes;
  }
};

void require_gemm_support(Dtype dtype, Backend backend) {
  const DtypeTraits t = traits(dtype);
  if (backend == Backend::cublas && t.cublaslt_only)
    throw Unsupported(std::string(t.name) + " GEMMs exist in cuBLASLt only, not cublasGemmEx");
  int device = 0, major = 0, minor = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  if (major * 10 + minor < t.min_compute_capability)
    throw Unsupported(std::string(t.name) + " GEMMs need compute capability " +
                      std::to_string(t.min_compute_capability / 10) + "." +
                      std::to_string(t.min_compute_capability % 10) + "; this GPU is " +
                      std::to_string(major) + "." + std::to_string(minor));
}

namespace {

bool a_transposed(Dtype dtype) {
  // Hopper's fp8 GEMMs exist only in the "TN" form: op(A) = A^T, op(B) = B.
  return dtype == Dtype::fp8;
}

}  // namespace

std::size_t Gemm::device_bytes(Dtype dtype, int n) {
  const std::size_t elements = std::size_t(n) * n;
  return 3 * elements * traits(dtype).element_bytes +
         elements * traits(output_dtype(dtype)).element_bytes + kWorkspaceBytes;
}

Gemm::Gemm(Dtype dtype, Backend backend, int n, cudaStream_t stream)
    : impl_(std::make_unique<Impl>()) {
  Impl& p = *impl_;
  p.dtype = dtype;
  p.backend = backend;
  p.n = n;
  p.stream = stream;

  require_gemm_support(dtype, backend);
  std::size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  if (device_bytes(dtype, n) > free_bytes)
    throw Unsupported("GEMM n=" + std::to_string(n) + " " + std::string(name(dtype)) + " needs " +
                      std::to_string(device_bytes(dtype, n) >> 20) + " MiB of device memory, " +
                      std::to_string(free_bytes >> 20) + " MiB free");

  p.a = DeviceBuffer<std::byte>(p.input_bytes());
  p.b = DeviceBuffer<std::byte>(p.input_bytes());
  p.b_negated = DeviceBuffer<std::byte>(p.input_bytes());
  p.c = DeviceBuffer<std::byte>(p.output_bytes());
  p.workspace = DeviceBuffer<std::byte>(kWorkspaceBytes);
  fill_uniform(p.a.get(), dtype, p.elements(), 1, stream);
  fill_uniform(p.b.get(), dtype, p.elements(), 2, stream);
  negate(p.b.get(), p.b_negated.get(), dtype, p.elements(), stream);

  const DtypeTraits t = traits(dtype);
  if (backend == Backend::cublas) {
    p.blas.emplace();
    CUBLAS_CHECK(cublasSetStream(p.blas->get(), stream));
    CUBLAS_CHECK(cublasSetWorkspace(p.blas->get(), p.workspace.get(), kWorkspaceBytes));
    return;
  }
  p.lt.emplace();
  cublasLtMatmulDesc_t desc = nullptr;
  CUBLAS_CHECK(cublasLtMatmulDescCreate(&desc, t.compute, CUDA_R_32F));
  p.lt_desc.reset(desc);
  if (a_transposed(dtype)) {
    const cublasOperation_t transpose = CUBLAS_OP_T;
    CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &transpose,
                                                sizeof(transpose)));
  }
  if (dtype == Dtype::fp8) {
    // Per-tensor scales, as every fp8 user passes them (1.0: the inputs are already in range).
    static const float kOne = 1.0f;  // static: the copies below may run after this frame is gone
    p.a_scale = DeviceBuffer<float>(1);
    p.b_scale = DeviceBuffer<float>(1);
    CUDA_CHECK(
        cudaMemcpyAsync(p.a_scale.get(), &kOne, sizeof(kOne), cudaMemcpyHostToDevice, stream));
    CUDA_CHECK(
        cudaMemcpyAsync(p.b_scale.get(), &kOne, sizeof(kOne), cudaMemcpyHostToDevice, stream));
    const float* a_scale = p.a_scale.get();
    const float* b_scale = p.b_scale.get();
    CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER,
                                                &a_scale, sizeof(a_scale)));
    CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER,
                                                &b_scale, sizeof(b_scale)));
  }
  cublasLtMatrixLayout_t layout = nullptr;
  CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&layout, t.storage, n, n, n));
  p.lt_layout.reset(layout);
  cublasLtMatrixLayout_t out_layout = nullptr;
  CUBLAS_CHECK(
      cublasLtMatrixLayoutCreate(&out_layout, traits(output_dtype(dtype)).storage, n, n, n));
  p.lt_out_layout.reset(out_layout);
  cublasLtMatmulPreference_t pref_raw = nullptr;
  CUBLAS_CHECK(cublasLtMatmulPreferenceCreate(&pref_raw));
  const LtPreference pref(pref_raw);
  const std::uint64_t workspace_bytes = kWorkspaceBytes;
  CUBLAS_CHECK(cublasLtMatmulPreferenceSetAttribute(pref.get(),
                                                    CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                    &workspace_bytes, sizeof(workspace_bytes)));
  cublasLtMatmulHeuristicResult_t results[kAlgoCandidates] = {};
  int returned = 0;
  CUBLAS_CHECK(cublasLtMatmulAlgoGetHeuristic(p.lt->get(), desc, layout, layout, out_layout,
                                              out_layout, pref.get(), kAlgoCandidates, results,
                                              &returned));
  if (returned == 0)
    throw Unsupported("cuBLASLt has no algorithm for " + std::string(t.name) +
                      " n=" + std::to_string(n));
  // Setup, not timing: run each candidate once (asynchronously) and keep the first that the
  // library accepts. NOT_SUPPORTED is decided on the host at the call, before anything is queued.
  const float alpha = 1.0f, beta = 0.0f;
  cublasStatus_t status = CUBLAS_STATUS_NOT_SUPPORTED;
  for (int i = 0; i < returned && status == CUBLAS_STATUS_NOT_SUPPORTED; ++i) {
    status = cublasLtMatmul(p.lt->get(), desc, &alpha, p.a.get(), layout, p.b.get(), layout, &beta,
                            p.c.get(), out_layout, p.c.get(), out_layout, &results[i].algo,
                            p.workspace.get(), kWorkspaceBytes, stream);
    if (status == CUBLAS_STATUS_SUCCESS) p.lt_algo = results[i].algo;
  }
  if (status == CUBLAS_STATUS_NOT_SUPPORTED)
    throw Unsupported("cuBLASLt refused all " + std::to_string(returned) +
                      " algorithms its heuristic offered for " + std::string(t.name) +
                      " n=" + std::to_string(n) + " (CUBLAS_STATUS_NOT_SUPPORTED)");
  CUBLAS_CHECK(status);
}

Gemm::~Gemm() = default;
Gemm::Gemm(Gemm&&) noexcept = default;
Gemm& Gemm::operator=(Gemm&&) noexcept = default;

void Gemm::enqueue(bool negated) const {
  const Impl& p = *impl_;
  const float alpha = 1.0f, beta = 0.0f;
  const void* b = negated ? p.b_negated.get() : p.b.get();
  const DtypeTraits t = traits(p.dtype);
  if (p.backend == Backend::cublas) {
    CUBLAS_CHECK(cublasGemmEx(p.blas->get(), CUBLAS_OP_N, CUBLAS_OP_N, p.n, p.n, p.n, &alpha,
                              p.a.get(), t.storage, p.n, b, t.storage, p.n, &beta, p.c.get(),
                              t.storage, p.n, t.compute, CUBLAS_GEMM_DEFAULT));
  } else {
    CUBLAS_CHECK(cublasLtMatmul(p.lt->get(), p.lt_desc.get(), &alpha, p.a.get(), p.lt_layout.get(),
                                b, p.lt_layout.get(), &beta, p.c.get(), p.lt_out_layout.get(),
                                p.c.get(), p.lt_out_layout.get(), &p.lt_algo, p.workspace.get(),
                                kWorkspaceBytes, p.stream));
  }
}

double Gemm::validate() {
  Impl& p = *impl_;
  const std::vector<std::int64_t> indices = sample_indices(p.n);
  DeviceBuffer<std::int64_t> d_indices(indices.size());
  DeviceBuffer<double> d_ref(indices.size()), d_got(indices.size());
  DeviceBuffer<unsigned long long> d_nonfinite(1);
  CUDA_CHECK(cudaMemcpyAsync(d_indices.get(), indices.data(), d_indices.bytes(),
                             cudaMemcpyHostToDevice, p.stream));
  CUDA_CHECK(cudaMemsetAsync(d_nonfinite.get(), 0, d_nonfinite.bytes(), p.stream));

  const Dtype out = output_dtype(p.dtype);
  fill_nan(p.c.get(), out, p.elements(), p.stream);
  enqueue(false);
  count_nonfinite(p.c.get(), out, p.elements(), d_nonfinite.get(), p.stream);
  gather_to_double(p.c.get(), out, d_indices.get(), d_got.get(), indices.size(), p.stream);
  gemm_reference_at(p.a.get(), p.b.get(), p.dtype, p.n, a_transposed(p.dtype), d_indices.get(),
                    d_ref.get(), indices.size(), p.stream);

  std::vector<double> ref(indices.size()), got(indices.size());
  unsigned long long nonfinite = 0;
  CUDA_CHECK(
      cudaMemcpyAsync(ref.data(), d_ref.get(), d_ref.bytes(), cudaMemcpyDeviceToHost, p.stream));
  CUDA_CHECK(
      cudaMemcpyAsync(got.data(), d_got.get(), d_got.bytes(), cudaMemcpyDeviceToHost, p.stream));
  CUDA_CHECK(cudaMemcpyAsync(&nonfinite, d_nonfinite.get(), sizeof(nonfinite),
                             cudaMemcpyDeviceToHost, p.stream));
  CUDA_CHECK(cudaStreamSynchronize(p.stream));

  const std::string what = std::string(name(p.backend)) + " " + std::string(name(p.dtype)) +
                           " GEMM n=" + std::to_string(p.n);
  if (nonfinite != 0)
    throw std::runtime_error(what + ": " + std::to_string(nonfinite) +
                             " output elements are NaN/Inf (unwritten or overflowed)");
  const ReferenceError e = reference_error(got, ref);
  const double tolerance = traits(p.dtype).tolerance;
  if (!within_tolerance(e, tolerance))
    throw std::runtime_error(
        what + ": against a float64 reference, relative error " + std::to_string(e.relative_norm) +
        " (limit " + std::to_string(tolerance) + "), worst element at index " +
        std::to_string(indices[e.worst_index]) + " off by " + std::to_string(e.worst_element) +
        " RMS (limit " + std::to_string(kWorstElementFactor * tolerance) + ")");
  p.probe_index = indices[e.largest_index];
  p.probe_value = got[e.largest_index];
  return e.relative_norm;
}

Dtype Gemm::dtype() const {
  return impl_->dtype;
}
Backend Gemm::backend() const {
  return impl_->backend;
}
int Gemm::n() const {
  return impl_->n;
}
const void* Gemm::c() const {
  return impl_->c.get();
}
std::size_t Gemm::c_elements() const {
  return impl_->elements();
}
std::size_t Gemm::c_bytes() const {
  return impl_->output_bytes();
}
double Gemm::flops() const {
  return 2.0 * impl_->n * double(impl_->n) * impl_->n;
}
std::int64_t Gemm::probe_index() const {
  return impl_->probe_index;
}
double Gemm::probe_value() const {
  return impl_->probe_value;
}

}  // namespace sync_bench
