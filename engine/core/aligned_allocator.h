// An allocator whose blocks start on an Alignment-byte boundary, so a std::vector of network
// weights can be read with aligned SIMD loads (eval/nnue.h). Stateless: every instance of a type
// frees what any other allocated.
#pragma once

#include <cstddef>
#include <new>
#include <vector>

namespace outpost {

template <typename T, std::size_t Alignment>
struct AlignedAllocator {
    static_assert(Alignment >= alignof(T) && (Alignment & (Alignment - 1)) == 0);
    using value_type = T;
    template <typename U>
    struct rebind {
        using other = AlignedAllocator<U, Alignment>;
    };

    AlignedAllocator() = default;
    template <typename U>
    AlignedAllocator(const AlignedAllocator<U, Alignment>&) {}

    T* allocate(std::size_t n) {
        return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t(Alignment)));
    }
    void deallocate(T* p, std::size_t) { ::operator delete(p, std::align_val_t(Alignment)); }

    template <typename U>
    bool operator==(const AlignedAllocator<U, Alignment>&) const {
        return true;
    }
};

template <typename T, std::size_t Alignment = 64>
using AlignedVector = std::vector<T, AlignedAllocator<T, Alignment>>;

}  // namespace outpost
