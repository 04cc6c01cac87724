// The portable kernel (nnue_kernel_scalar.h), for every width.
#include "eval/nnue_kernel_scalar.h"

namespace outpost::nnue::kernels {

const KernelTable kScalar = kernelTable<ScalarOps>();

}  // namespace outpost::nnue::kernels
