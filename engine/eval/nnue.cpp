#include "eval/nnue.h"

#include <algorithm>
#include <cstring>

#include "core/position.h"

#if defined(__AVX2__) || defined(__SSE2__)
#include <immintrin.h>
#endif

namespace outpost::nnue {

// The network file compiled into the program (generated at build time from engine/eval/net/).
extern const unsigned char kEmbeddedNetwork[];
extern const std::size_t kEmbeddedNetworkSize;

namespace {

// The output layer's 32-bit lanes each sum at most this many products of clamp(a)^2 x w (the
// SSE2 path's lanes sum the most); they must not overflow before the 64-bit total.
constexpr std::int64_t kMaxProductsPerLane = 2 * kHidden / 8 * 2;
static_assert(kMaxProductsPerLane * kQA * kQA * kMaxOutputWeight < (std::int64_t(1) << 31),
              "the output layer's 32-bit lanes could overflow");
static_assert(std::int32_t(kQA) * kMaxOutputWeight <= 32767,
              "clamp(a) x w must fit 16 bits for the SIMD multiply");
static_assert(kHidden % 16 == 0, "kernels work in blocks of 16 neurons");

constexpr std::uint32_t kMagic = 0x4E4E504F;  // "OPNN" read as little-endian

// Feature rows changed by one move, for one perspective: at most two added, two removed.
struct RowChanges {
    std::array<const std::int16_t*, SquareCount> add{};
    std::array<const std::int16_t*, 4> sub{};
    int adds = 0, subs = 0;
};

const std::int16_t* row(const Network& net, Color perspective, Piece pc, Square sq) {
    return net.featureWeights.data() + std::size_t(featureIndex(perspective, pc, sq)) * kHidden;
}

Square castlingRookFrom(Square kingTo) {
    return kingTo == G1 ? H1 : kingTo == C1 ? A1 : kingTo == G8 ? H8 : A8;
}
Square castlingRookTo(Square kingTo) {
    return kingTo == G1 ? F1 : kingTo == C1 ? D1 : kingTo == G8 ? F8 : D8;
}

// --- Kernels: out = base + sum(add rows) - sum(sub rows), and the output layer ------------------

void combineScalar(const std::int16_t* base, const RowChanges& rows, std::int16_t* out) {
    for (int i = 0; i < kHidden; ++i) {
        int v = base[i];
        for (int k = 0; k < rows.adds; ++k) v += rows.add[k][i];
        for (int k = 0; k < rows.subs; ++k) v -= rows.sub[k][i];
        out[i] = static_cast<std::int16_t>(v);  // wraps like the SIMD adds (never in practice)
    }
}

std::int64_t outputSumScalar(const Network& net, const Accumulator& acc, Color stm) {
    std::int64_t sum = 0;
    const Color sides[2] = {stm, ~stm};
    for (int s = 0; s < 2; ++s) {
        const std::int16_t* a = acc.values[sides[s]].data();
        const std::int16_t* w = net.outputWeights.data() + s * kHidden;
        for (int i = 0; i < kHidden; ++i) {
            const std::int32_t v = std::clamp<std::int32_t>(a[i], 0, kQA);
            sum += std::int64_t(v * w[i]) * v;
        }
    }
    return sum;
}

#if defined(__AVX2__)
constexpr const char* kBestName = "avx2";

void combineSimd(const std::int16_t* base, const RowChanges& rows, std::int16_t* out) {
    for (int i = 0; i < kHidden; i += 16) {
        __m256i v = _mm256_load_si256(reinterpret_cast<const __m256i*>(base + i));
        for (int k = 0; k < rows.adds; ++k)
            v = _mm256_add_epi16(
                v, _mm256_load_si256(reinterpret_cast<const __m256i*>(rows.add[k] + i)));
        for (int k = 0; k < rows.subs; ++k)
            v = _mm256_sub_epi16(
                v, _mm256_load_si256(reinterpret_cast<const __m256i*>(rows.sub[k] + i)));
        _mm256_store_si256(reinterpret_cast<__m256i*>(out + i), v);
    }
}

std::int64_t outputSumSimd(const Network& net, const Accumulator& acc, Color stm) {
    const __m256i zero = _mm256_setzero_si256();
    const __m256i ceiling = _mm256_set1_epi16(kQA);
    __m256i sum = _mm256_setzero_si256();
    const Color sides[2] = {stm, ~stm};
    for (int s = 0; s < 2; ++s) {
        const std::int16_t* a = acc.values[sides[s]].data();
        const std::int16_t* w = net.outputWeights.data() + s * kHidden;
        for (int i = 0; i < kHidden; i += 16) {
            __m256i v = _mm256_load_si256(reinterpret_cast<const __m256i*>(a + i));
            v = _mm256_min_epi16(_mm256_max_epi16(v, zero), ceiling);
            const __m256i wv = _mm256_load_si256(reinterpret_cast<const __m256i*>(w + i));
            sum = _mm256_add_epi32(sum, _mm256_madd_epi16(_mm256_mullo_epi16(v, wv), v));
        }
    }
    alignas(32) std::int32_t lanes[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), sum);
    std::int64_t total = 0;
    for (const std::int32_t lane : lanes) total += lane;
    return total;
}
#elif defined(__SSE2__)
constexpr const char* kBestName = "sse2";

void combineSimd(const std::int16_t* base, const RowChanges& rows, std::int16_t* out) {
    for (int i = 0; i < kHidden; i += 8) {
        __m128i v = _mm_load_si128(reinterpret_cast<const __m128i*>(base + i));
        for (int k = 0; k < rows.adds; ++k)
            v = _mm_add_epi16(v, _mm_load_si128(reinterpret_cast<const __m128i*>(rows.add[k] + i)));
        for (int k = 0; k < rows.subs; ++k)
            v = _mm_sub_epi16(v, _mm_load_si128(reinterpret_cast<const __m128i*>(rows.sub[k] + i)));
        _mm_store_si128(reinterpret_cast<__m128i*>(out + i), v);
    }
}

std::int64_t outputSumSimd(const Network& net, const Accumulator& acc, Color stm) {
    const __m128i zero = _mm_setzero_si128();
    const __m128i ceiling = _mm_set1_epi16(kQA);
    __m128i sum = _mm_setzero_si128();
    const Color sides[2] = {stm, ~stm};
    for (int s = 0; s < 2; ++s) {
        const std::int16_t* a = acc.values[sides[s]].data();
        const std::int16_t* w = net.outputWeights.data() + s * kHidden;
        for (int i = 0; i < kHidden; i += 8) {
            __m128i v = _mm_load_si128(reinterpret_cast<const __m128i*>(a + i));
            v = _mm_min_epi16(_mm_max_epi16(v, zero), ceiling);
            const __m128i wv = _mm_load_si128(reinterpret_cast<const __m128i*>(w + i));
            sum = _mm_add_epi32(sum, _mm_madd_epi16(_mm_mullo_epi16(v, wv), v));
        }
    }
    alignas(16) std::int32_t lanes[4];
    _mm_store_si128(reinterpret_cast<__m128i*>(lanes), sum);
    std::int64_t total = 0;
    for (const std::int32_t lane : lanes) total += lane;
    return total;
}
#else
constexpr const char* kBestName = "scalar";

void combineSimd(const std::int16_t* base, const RowChanges& rows, std::int16_t* out) {
    combineScalar(base, rows, out);
}
std::int64_t outputSumSimd(const Network& net, const Accumulator& acc, Color stm) {
    return outputSumScalar(net, acc, stm);
}
#endif

void combine(Kernel kernel, const std::int16_t* base, const RowChanges& rows, std::int16_t* out) {
    if (kernel == Kernel::Scalar)
        combineScalar(base, rows, out);
    else
        combineSimd(base, rows, out);
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

const char* bestKernelName() {
    return kBestName;
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
        combine(kernel, net.featureBias.data(), rows, acc.values[perspective].data());
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
        combine(kernel, before.values[perspective].data(), rows, after.values[perspective].data());
    }
}

int output(const Network& net, const Accumulator& acc, Color sideToMove, Kernel kernel) {
    const std::int64_t sum = kernel == Kernel::Scalar ? outputSumScalar(net, acc, sideToMove)
                                                      : outputSumSimd(net, acc, sideToMove);
    const std::int64_t raw = sum / kQA + net.outputBias;
    return static_cast<int>(raw * kScale / (std::int64_t(kQA) * kQB));
}

int evaluate(const Network& net, const Position& pos, Kernel kernel) {
    Accumulator acc;
    refresh(net, pos, acc, kernel);
    return output(net, acc, pos.sideToMove(), kernel);
}

const Accumulator& AccumulatorStack::accumulator(const Position& pos, Kernel kernel) {
    const int n = pos.historyLength();
    if (entries_.size() <= std::size_t(n)) entries_.resize(std::size_t(n) + 64);
    const int oldest = std::max(0, n - kMaxReplayPlies);
    int found = n;
    while (found >= oldest &&
           !(entries_[found].valid && entries_[found].key == pos.stateBack(n - found).key))
        --found;
    if (found < oldest) {
        refresh(*net_, pos, entries_[n].acc, kernel);
    } else {
        for (int i = found + 1; i <= n; ++i) {
            update(*net_, pos.stateBack(n - i), entries_[i - 1].acc, entries_[i].acc, kernel);
            entries_[i].key = pos.stateBack(n - i).key;
            entries_[i].valid = true;
        }
    }
    entries_[n].key = pos.key();
    entries_[n].valid = true;
    return entries_[n].acc;
}

int AccumulatorStack::evaluate(const Position& pos, Kernel kernel) {
    return output(*net_, accumulator(pos, kernel), pos.sideToMove(), kernel);
}

void AccumulatorStack::clear() {
    for (Entry& e : entries_) e.valid = false;
}

}  // namespace outpost::nnue
