// The network file (eval/nnue.h has its layout): reading versions 1 and 2, writing the oldest
// version that holds the net, and the net compiled into the program.
#include <string>

#include "eval/nnue.h"

namespace outpost::nnue {

// The network file compiled into the program (generated at build time from engine/eval/net/).
extern const unsigned char kEmbeddedNetwork[];
extern const std::size_t kEmbeddedNetworkSize;

namespace {

constexpr std::uint32_t kMagic = 0x4E4E504F;  // "OPNN" read as little-endian

std::uint32_t readU32(const unsigned char* p) {
    return std::uint32_t(p[0]) | std::uint32_t(p[1]) << 8 | std::uint32_t(p[2]) << 16 |
           std::uint32_t(p[3]) << 24;
}

template <typename Container>
const unsigned char* readI16(const unsigned char* p, Container& out) {
    for (auto& v : out) {
        v = static_cast<std::int16_t>(std::uint16_t(p[0] | p[1] << 8));
        p += 2;
    }
    return p;
}

void writeU32(std::string& out, std::uint32_t v) {
    for (int b = 0; b < 4; ++b) out.push_back(static_cast<char>((v >> (8 * b)) & 0xFF));
}

template <typename Container>
void writeI16(std::string& out, const Container& values) {
    for (const std::int16_t v : values) {
        const auto u = static_cast<std::uint16_t>(v);
        out.push_back(static_cast<char>(u & 0xFF));
        out.push_back(static_cast<char>(u >> 8));
    }
}

}  // namespace

std::unique_ptr<Network> loadNetwork(std::span<const unsigned char> bytes, std::string* error) {
    auto fail = [&](const std::string& why) {
        if (error) *error = why;
        return std::unique_ptr<Network>();
    };
    if (bytes.size() < kHeaderBytesV1)
        return fail("expected a network file, got " + std::to_string(bytes.size()) + " bytes");
    const unsigned char* p = bytes.data();
    if (readU32(p) != kMagic) return fail("not a network file (bad magic)");
    const std::uint32_t version = readU32(p + 4);
    if (version != kFormatVersion1 && version != kFormatVersion2)
        return fail("unknown network format version " + std::to_string(version));
    if (version == kFormatVersion2 && bytes.size() < kHeaderBytesV2)
        return fail("expected a version 2 header, got " + std::to_string(bytes.size()) + " bytes");
    const std::uint32_t inputs = readU32(p + 8), hidden = readU32(p + 12);
    const std::uint32_t buckets = version == kFormatVersion2 ? readU32(p + 16) : 1;
    if (inputs != kInputs || hidden > std::uint32_t(kMaxHidden) ||
        buckets > std::uint32_t(kMaxOutputBuckets) || !validShape(int(hidden), int(buckets)) ||
        (version == kFormatVersion2 && buckets < 2))
        return fail("unsupported network shape: " + std::to_string(inputs) + " inputs, " +
                    std::to_string(hidden) + " hidden, " + std::to_string(buckets) +
                    " output buckets (this build reads " + std::to_string(kInputs) +
                    " inputs, a multiple of " + std::to_string(kHiddenStep) + " hidden up to " +
                    std::to_string(kMaxHidden) + ", 1 to " + std::to_string(kMaxOutputBuckets) +
                    " buckets, more than one only in version 2)");
    const std::size_t expected = fileBytes(int(hidden), int(buckets));
    if (bytes.size() != expected)
        return fail("expected " + std::to_string(expected) + " bytes, got " +
                    std::to_string(bytes.size()));
    auto net = std::make_unique<Network>(int(hidden), int(buckets));
    p += version == kFormatVersion2 ? kHeaderBytesV2 : kHeaderBytesV1;
    p = readI16(p, net->featureWeights);
    p = readI16(p, net->featureBias);
    p = readI16(p, net->outputWeights);
    for (std::int32_t& bias : net->outputBias) {
        bias = static_cast<std::int32_t>(readU32(p));
        p += 4;
    }
    for (const std::int16_t w : net->outputWeights)
        if (w > kMaxOutputWeight || w < -kMaxOutputWeight)
            return fail("output weight out of range");
    return net;
}

std::string serializeNetwork(const Network& net) {
    std::string out;
    out.reserve(fileBytes(net.hidden, net.outputBuckets));
    const std::uint32_t version = formatVersion(net.outputBuckets);
    writeU32(out, kMagic);
    writeU32(out, version);
    writeU32(out, kInputs);
    writeU32(out, std::uint32_t(net.hidden));
    if (version == kFormatVersion2) writeU32(out, std::uint32_t(net.outputBuckets));
    writeI16(out, net.featureWeights);
    writeI16(out, net.featureBias);
    writeI16(out, net.outputWeights);
    for (const std::int32_t bias : net.outputBias) writeU32(out, static_cast<std::uint32_t>(bias));
    return out;
}

const Network* embeddedNetwork() {
    static const std::unique_ptr<Network> net =
        loadNetwork({kEmbeddedNetwork, kEmbeddedNetworkSize});
    return net.get();
}

}  // namespace outpost::nnue
