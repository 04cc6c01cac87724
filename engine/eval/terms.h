// The accumulator every evaluation term goes through: it adds a weight to a colour's score and,
// when tracing for the tuner, counts the weight's use.
#pragma once

#include <cstddef>

#include "eval/trace.h"
#include "eval/weight_values.h"
#include "eval/weights.h"

namespace outpost::eval {

// The weight table as the array of kNumWeights tapered pairs it is laid out as (weights.h).
inline const S* weightArray() {
    return reinterpret_cast<const S*>(&kWeights);
}

inline std::size_t weightIndexOf(const S& w) {
    return static_cast<std::size_t>(&w - weightArray());
}

template <bool kTrace>
class Terms {
  public:
    explicit Terms(EvalTrace* trace) : trace_(trace) {}

    // Adds `count` times weight `w` for `colour` (0 White, 1 Black).
    void add(int colour, const S& w, int count = 1) {
        const S v = w * count;
        if (colour == 0)
            total_ += v;
        else
            total_ -= v;
        if constexpr (kTrace) trace_->coef[weightIndexOf(w)] += colour == 0 ? count : -count;
    }

    // Adds count * w * percent / 100 (king danger scaled by the number of attackers).
    void addScaled(int colour, const S& w, int count, int percent) {
        const S v(w.mg * count * percent / 100, w.eg * count * percent / 100);
        if (colour == 0)
            total_ += v;
        else
            total_ -= v;
        if constexpr (kTrace) {
            const double c = count * percent / 100.0;
            trace_->coef[weightIndexOf(w)] += colour == 0 ? c : -c;
        }
    }

    // Adds a precomputed (cached) White-minus-Black score; only valid when not tracing.
    void addCached(S whiteMinusBlack) { total_ += whiteMinusBlack; }

    S total() const { return total_; }
    EvalTrace* trace() const { return trace_; }

  private:
    S total_;
    EvalTrace* trace_;
};

}  // namespace outpost::eval
