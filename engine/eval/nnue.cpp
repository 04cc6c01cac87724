#include "eval/nnue.h"

#include <algorithm>
#include <cstring>

#include "core/position.h"
#include "eval/nnue_kernels.h"

namespace outpost::nnue {

// The network file compiled into the program (generated at build time from engine/eval/net/).
extern const unsigned char kEmbeddedNetwork[];
extern const std::size_t kEmbeddedNetworkSize;

namespace {

using kernels::KernelOps;
using kernels::RowChanges;

constexpr std::uint32_t kMagic = 0x4E4E504F;  // "OPNN" read as little-endian

const std::int16_t* row(const Network& net, Color perspective, Piece pc, Square sq) {
    return net.featureWeights.data() + std::size_t(featureIndex(perspective, pc, sq)) * kHidden;
}

Square castlingRookFrom(Square kingTo) {
    return kingTo == G1 ? H1 : kingTo == C1 ? A1 : kingTo == G8 ? H8 : A8;
}
Square castlingRookTo(Square kingTo) {
    return kingTo == G1 ? F1 : kingTo == C1 ? D1 : kingTo == G8 ? F8 : D8;
}

// The kernel table, indexed by Kernel.
constexpr const KernelOps* kKernelOps[kKernelCount] = {&kernels::kScalar, &kernels::kSse2,
                                                       &kernels::kAvx2, &kernels::kAvx512};

const KernelOps& ops(Kernel kernel) {
    return *kKernelOps[int(kernel)];
}

// --- Little-endian reading and writing ---------------------------------------------------------

std::uint32_t readU32(const unsigned char* p) {
    return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 |
           std::uint32_t(p[3]) << 24;
}

template <std::size_t N>
const unsigned char* readI16(const unsigned char* p, std::array<std::int16_t, N>& out) {
    for (std::size_t i = 0; i < N; ++i, p += 2)
        out[i] = static_cast<std::int16_t>(std::uint16_t(p[0] | p[1] << 8));
    return p;
}

void writeU32(std::string& out, std::uint32_t v) {
    for (int b = 0; b < 4; ++b) out.push_back(static_cast<char>((v >> (8 * b)) & 0xFF));
}

template <std::size_t N>
void writeI16(std::string& out, const std::array<std::int16_t, N>& values) {
    for (const std::int16_t v : values) {
        const auto u = static_cast<std::uint16_t>(v);
        out.push_back(static_cast<char>(u & 0xFF));
        out.push_back(static_cast<char>(u >> 8));
    }
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

std::unique_ptr<Network> loadNetwork(std::span<const unsigned char> bytes, std::string* error) {
    auto fail = [&](const std::string& why) {
        if (error) *error = why;
        return std::unique_ptr<Network>();
    };
    if (bytes.size() != kFileBytes)
        return fail("expected " + std::to_string(kFileBytes) + " bytes, got " +
                    std::to_string(bytes.size()));
    const unsigned char* p = bytes.data();
    if (readU32(p) != kMagic) return fail("not a network file (bad magic)");
    if (readU32(p + 4) != kFormatVersion) return fail("unknown network format version");
    if (readU32(p + 8) != kInputs || readU32(p + 12) != kHidden)
        return fail("network shape differs from this build's " + std::to_string(kInputs) + "x" +
                    std::to_string(kHidden));
    auto net = std::make_unique<Network>();
    p = readI16(p + kHeaderBytes, net->featureWeights);
    p = readI16(p, net->featureBias);
    p = readI16(p, net->outputWeights);
    net->outputBias = static_cast<std::int32_t>(readU32(p));
    for (const std::int16_t w : net->outputWeights)
        if (w > kMaxOutputWeight || w < -kMaxOutputWeight)
            return fail("output weight out of range");
    return net;
}

std::string serializeNetwork(const Network& net) {
    std::string out;
    out.reserve(kFileBytes);
    writeU32(out, kMagic);
    writeU32(out, kFormatVersion);
    writeU32(out, kInputs);
    writeU32(out, kHidden);
    writeI16(out, net.featureWeights);
    writeI16(out, net.featureBias);
    writeI16(out, net.outputWeights);
    writeU32(out, static_cast<std::uint32_t>(net.outputBias));
    return out;
}

const Network* embeddedNetwork() {
    static const std::unique_ptr<Network> net =
        loadNetwork({kEmbeddedNetwork, kEmbeddedNetworkSize});
    return net.get();
}

void refresh(const Network& net, const Position& pos, Accumulator& acc, Kernel kernel) {
    for (const Color perspective : {White, Black}) {
        RowChanges rows;
        for (Bitboard b = pos.pieces(); b;) {
            const Square sq = popLsb(b);
            rows.add[rows.adds++] = row(net, perspective, pos.pieceOn(sq), sq);
        }
        ops(kernel).combine(net.featureBias.data(), rows, acc.values[perspective].data());
    }
}

void update(const Network& net, const StateInfo& st, const Accumulator& before, Accumulator& after,
            Kernel kernel) {
    const Move m = st.move;
    const Piece moved = st.moved;
    if (moved == NoPiece) {  // a null move (or no move): the board did not change
        after = before;
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
        ops(kernel).combine(before.values[perspective].data(), rows,
                            after.values[perspective].data());
    }
}

int output(const Network& net, const Accumulator& acc, Color sideToMove, Kernel kernel) {
    const std::int64_t sum = ops(kernel).outputSum(
        acc.values[sideToMove].data(), acc.values[~sideToMove].data(), net.outputWeights.data());
    const std::int64_t raw = sum / kQA + net.outputBias;
    return static_cast<int>(raw * kScale / (std::int64_t(kQA) * kQB));
}

int evaluate(const Network& net, const Position& pos, Kernel kernel) {
    Accumulator acc;
    refresh(net, pos, acc, kernel);
    return output(net, acc, pos.sideToMove(), kernel);
}

const Accumulator& AccumulatorStack::accumulator(const Position& pos) {
    const int n = pos.historyLength();
    if (entries_.size() <= std::size_t(n)) entries_.resize(std::size_t(n) + 64);
    const int oldest = std::max(0, n - kMaxReplayPlies);
    int found = n;
    while (found >= oldest &&
           !(entries_[found].valid && entries_[found].key == pos.stateBack(n - found).key))
        --found;
    if (found < oldest) {
        refresh(*net_, pos, entries_[n].acc, kernel_);
    } else {
        for (int i = found + 1; i <= n; ++i) {
            update(*net_, pos.stateBack(n - i), entries_[i - 1].acc, entries_[i].acc, kernel_);
            entries_[i].key = pos.stateBack(n - i).key;
            entries_[i].valid = true;
        }
    }
    entries_[n].key = pos.key();
    entries_[n].valid = true;
    return entries_[n].acc;
}

int AccumulatorStack::evaluate(const Position& pos) {
    return output(*net_, accumulator(pos), pos.sideToMove(), kernel_);
}

void AccumulatorStack::clear() {
    for (Entry& e : entries_) e.valid = false;
}

}  // namespace outpost::nnue
