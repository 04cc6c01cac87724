// Which output bucket of the network (eval/nnue.h) scores a position: the material left on the
// board picks it, so an opening, a middlegame and an ending each get their own output layer
// while sharing the accumulator. One rule for the engine and the trainer (tools/nnue), so a net
// is scored the way it was trained.
//
// With N buckets, bucket = (pieces - 2) x N / 32, pieces counting both kings and every pawn
// (2..32), clamped to [0, N - 1]. For the usual N = 8 that is (pieces - 2) / 4: 32..30 pieces
// bucket 7, 29..26 bucket 6, ..., 9..6 bucket 1, 5..2 bucket 0. One bucket (the version 1 file
// format) scores every position with bucket 0.
#pragma once

namespace outpost::nnue {

inline constexpr int kMaxOutputBuckets = 8;
inline constexpr int kMaxPieces = 32;
inline constexpr int kKings = 2;

constexpr int outputBucket(int pieceCount, int buckets) {
    // Unsigned, so the search's hot path divides by a shift.
    const unsigned beyondKings = pieceCount > kKings ? unsigned(pieceCount - kKings) : 0u;
    const int bucket = int(beyondKings * unsigned(buckets) / unsigned(kMaxPieces));
    return bucket < buckets ? bucket : buckets - 1;
}

static_assert(outputBucket(32, 8) == 7 && outputBucket(30, 8) == 7 && outputBucket(29, 8) == 6);
static_assert(outputBucket(6, 8) == 1 && outputBucket(5, 8) == 0 && outputBucket(2, 8) == 0);
static_assert(outputBucket(32, 1) == 0 && outputBucket(2, 1) == 0 && outputBucket(0, 8) == 0);

}  // namespace outpost::nnue
