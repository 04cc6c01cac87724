#include "eval/nnue.h"

#include <algorithm>
#include <cstring>

#include "core/position.h"
#include "eval/nnue_kernels.h"

namespace outpost::nnue {

namespace {

using kernels::KernelOps;
using kernels::RowChanges;

const std::int16_t* row(const Network& net, Color perspective, Piece pc, Square sq) {
    return net.featureWeights.data() +
           std::size_t(featureIndex(perspective, pc, sq)) * std::size_t(net.hidden);
}

Square castlingRookFrom(Square kingTo) {
    return kingTo == G1 ? H1 : kingTo == C1 ? A1 : kingTo == G8 ? H8 : A8;
}
Square castlingRookTo(Square kingTo) {
    return kingTo == G1 ? F1 : kingTo == C1 ? D1 : kingTo == G8 ? F8 : D8;
}

// The kernel tables, indexed by Kernel.
constexpr const kernels::KernelTable* kKernelOps[kKernelCount] = {
    &kernels::kScalar, &kernels::kSse2, &kernels::kAvx2, &kernels::kAvx512};

// The arithmetic of one kernel for nets of net's width.
const KernelOps& ops(Kernel kernel, const Network& net) {
    return (*kKernelOps[int(kernel)])[std::size_t(kernels::widthIndex(net.hidden))];
}

void refreshWith(const Network& net, const Position& pos, Accumulator& acc,
                 const KernelOps& arithmetic) {
    for (const Color perspective : {White, Black}) {
        RowChanges rows;
        for (Bitboard b = pos.pieces(); b;) {
            const Square sq = popLsb(b);
            rows.add[rows.adds++] = row(net, perspective, pos.pieceOn(sq), sq);
        }
        arithmetic.combine(net.featureBias.data(), rows, acc.values[perspective].data());
    }
}

void updateWith(const Network& net, const StateInfo& st, const Accumulator& before,
                Accumulator& after, const KernelOps& arithmetic) {
    const Move m = st.move;
    const Piece moved = st.moved;
    if (moved == NoPiece) {  // a null move (or no move): the board did not change
        for (const Color perspective : {White, Black})
            std::memcpy(after.values[perspective].data(), before.values[perspective].data(),
                        std::size_t(net.hidden) * sizeof(std::int16_t));
        return;
    }
    const Color us = colorOf(moved);
    const Square from = m.from(), to = m.to();
    for (const Color perspective : {White, Black}) {
        RowChanges rows;
        rows.sub[rows.subs++] = row(net, perspective, moved, from);
        if (m.isCastling()) {
            const Piece rook = makePiece(us, Rook);
            rows.add[rows.adds++] = row(net, perspective, moved, to);
            rows.sub[rows.subs++] = row(net, perspective, rook, castlingRookFrom(to));
            rows.add[rows.adds++] = row(net, perspective, rook, castlingRookTo(to));
        } else {
            const Piece placed = m.isPromotion() ? makePiece(us, m.promotionType()) : moved;
            rows.add[rows.adds++] = row(net, perspective, placed, to);
            if (st.captured != NoPiece) {
                const Square capSq = m.isEnPassant() ? Square(to - pawnPush(us)) : to;
                rows.sub[rows.subs++] = row(net, perspective, st.captured, capSq);
            }
        }
        arithmetic.combine(before.values[perspective].data(), rows,
                           after.values[perspective].data());
    }
}

int outputWith(const Network& net, const Accumulator& acc, Color sideToMove, int bucket,
               const KernelOps& arithmetic) {
    const std::int64_t sum = arithmetic.outputSum(
        acc.values[sideToMove].data(), acc.values[~sideToMove].data(), net.bucketWeights(bucket));
    const std::int64_t raw = sum / kQA + net.outputBias[std::size_t(bucket)];
    return static_cast<int>(raw * kScale / (std::int64_t(kQA) * kQB));
}

}  // namespace

Kernel activeKernel() {
    return cpuChoice().kernel;
}

bool kernelSupported(Kernel kernel) {
    // Detected once: the tests ask for every kernel many times.
    static const CpuInfo cpu = detectCpu();
    return outpost::kernelSupported(kernel, cpu);
}

int outputBucket(const Network& net, const Position& pos) {
    return outputBucket(popcount(pos.pieces()), net.outputBuckets);
}

void refresh(const Network& net, const Position& pos, Accumulator& acc, Kernel kernel) {
    refreshWith(net, pos, acc, ops(kernel, net));
}

void update(const Network& net, const StateInfo& st, const Accumulator& before, Accumulator& after,
            Kernel kernel) {
    updateWith(net, st, before, after, ops(kernel, net));
}

int output(const Network& net, const Accumulator& acc, Color sideToMove, int bucket,
           Kernel kernel) {
    return outputWith(net, acc, sideToMove, bucket, ops(kernel, net));
}

int evaluate(const Network& net, const Position& pos, Kernel kernel) {
    Accumulator acc;
    refresh(net, pos, acc, kernel);
    return output(net, acc, pos.sideToMove(), outputBucket(net, pos), kernel);
}

AccumulatorStack::AccumulatorStack(const Network& net, Kernel kernel)
    : net_(&net), ops_(&ops(kernel, net)) {}

const Accumulator& AccumulatorStack::accumulator(const Position& pos) {
    const int n = pos.historyLength();
    if (entries_.size() <= std::size_t(n)) entries_.resize(std::size_t(n) + 64);
    const int oldest = std::max(0, n - kMaxReplayPlies);
    int found = n;
    while (found >= oldest &&
           !(entries_[found].valid && entries_[found].key == pos.stateBack(n - found).key))
        --found;
    if (found < oldest) {
        refreshWith(*net_, pos, entries_[n].acc, *ops_);
    } else {
        for (int i = found + 1; i <= n; ++i) {
            updateWith(*net_, pos.stateBack(n - i), entries_[i - 1].acc, entries_[i].acc, *ops_);
            entries_[i].key = pos.stateBack(n - i).key;
            entries_[i].valid = true;
        }
    }
    entries_[n].key = pos.key();
    entries_[n].valid = true;
    return entries_[n].acc;
}

int AccumulatorStack::evaluate(const Position& pos) {
    return outputWith(*net_, accumulator(pos), pos.sideToMove(), outputBucket(*net_, pos), *ops_);
}

void AccumulatorStack::clear() {
    for (Entry& e : entries_) e.valid = false;
}

}  // namespace outpost::nnue
