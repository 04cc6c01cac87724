#include "http/accept.h"

#include <string>
#include <vector>

#include "http/header_text.h"

namespace outpost::server {

namespace {

// q is written with at most three decimals (RFC 9110 12.4.2): thousandths, as an integer.
constexpr int kFullQuality = 1000;
constexpr int kMaxQualityDecimals = 3;
constexpr int kDecimalBase = 10;

// One element of an Accept list: "type/subtype", "type/*" or "*/*" (lower case) and its q.
struct MediaRange {
    std::string type;
    std::string subtype;
    int quality = kFullQuality;
};

bool isToken(std::string_view text) {
    if (text.empty()) return false;
    for (char c : text) {
        const bool alnum =
            (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
        if (!alnum && std::string_view("!#$%&'*+-.^_`|~").find(c) == std::string_view::npos)
            return false;
    }
    return true;
}

// "0", "0.5", "1", "1.000" (RFC 9110 12.4.2) in thousandths; nullopt for anything else.
std::optional<int> parseQuality(std::string_view text) {
    if (text.empty() || (text[0] != '0' && text[0] != '1')) return std::nullopt;
    const bool one = text[0] == '1';
    int value = one ? kFullQuality : 0;
    text.remove_prefix(1);
    if (text.empty()) return value;
    if (text[0] != '.' || text.size() > 1 + kMaxQualityDecimals) return std::nullopt;
    text.remove_prefix(1);
    int scale = kFullQuality / kDecimalBase;
    for (char c : text) {
        if (c < '0' || c > '9' || (one && c != '0')) return std::nullopt;
        value += (c - '0') * scale;
        scale /= kDecimalBase;
    }
    return value;
}

// The element's media range, or nullopt when it is not one (no '/', a bad token, "*/json", a
// malformed q).
std::optional<MediaRange> parseRange(std::string_view element) {
    const std::size_t semicolon = element.find(';');
    const std::string_view range = trimHeaderSpace(element.substr(0, semicolon));
    const std::size_t slash = range.find('/');
    if (slash == std::string_view::npos) return std::nullopt;
    MediaRange parsed{lowerAscii(range.substr(0, slash)), lowerAscii(range.substr(slash + 1))};
    if (!isToken(parsed.type) || !isToken(parsed.subtype)) return std::nullopt;
    if (parsed.type == "*" && parsed.subtype != "*") return std::nullopt;
    std::string_view parameters =
        semicolon == std::string_view::npos ? std::string_view() : element.substr(semicolon + 1);
    while (!parameters.empty()) {
        const std::size_t next = parameters.find(';');
        const std::string_view parameter = parameters.substr(0, next);
        parameters =
            next == std::string_view::npos ? std::string_view() : parameters.substr(next + 1);
        const std::size_t equals = parameter.find('=');
        if (equals == std::string_view::npos) continue;
        if (lowerAscii(trimHeaderSpace(parameter.substr(0, equals))) != "q") continue;
        const auto quality = parseQuality(trimHeaderSpace(parameter.substr(equals + 1)));
        if (!quality) return std::nullopt;
        parsed.quality = *quality;
        break;  // what follows q are extension parameters (RFC 7231's accept-ext)
    }
    return parsed;
}

std::vector<MediaRange> parseAccept(std::string_view accept) {
    std::vector<MediaRange> ranges;
    forEachListItem(accept, [&](std::string_view element) {
        if (auto range = parseRange(element)) ranges.push_back(std::move(*range));
    });
    return ranges;
}

// How `ranges` rank one offered type: the quality of the most specific range naming it, that
// range's specificity (2 type/subtype, 1 type/*, 0 */*; -1 none) and its place in the list.
struct Rank {
    int quality = 0;
    int specificity = -1;
    std::size_t position = 0;
};

Rank rankOf(const std::vector<MediaRange>& ranges, std::string_view offered) {
    const std::size_t slash = offered.find('/');
    const std::string_view type = offered.substr(0, slash);
    const std::string_view subtype =
        slash == std::string_view::npos ? std::string_view() : offered.substr(slash + 1);
    Rank rank;
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        const MediaRange& range = ranges[i];
        int specificity = -1;
        if (range.type == "*") {
            specificity = 0;
        } else if (range.type == type) {
            specificity = range.subtype == "*" ? 1 : range.subtype == subtype ? 2 : -1;
        }
        if (specificity < 0) continue;
        // The most specific range decides; of equally specific ones (a type listed twice) the
        // higher q.
        if (specificity > rank.specificity ||
            (specificity == rank.specificity && range.quality > rank.quality)) {
            rank = {range.quality, specificity, i};
        }
    }
    return rank;
}

}  // namespace

std::string acceptList(const Request& request) {
    std::string joined;
    auto [begin, end] = request.equal_range(http::field::accept);
    for (auto it = begin; it != end; ++it) {
        if (!joined.empty()) joined += ',';
        joined.append(it->value().data(), it->value().size());
    }
    return joined;
}

std::optional<std::string_view> negotiateMediaType(std::string_view accept,
                                                   std::span<const std::string_view> offered) {
    const std::vector<MediaRange> ranges = parseAccept(accept);
    if (offered.empty()) return std::nullopt;
    if (ranges.empty()) return offered.front();
    std::optional<std::string_view> best;
    Rank bestRank;
    for (std::string_view type : offered) {
        const Rank rank = rankOf(ranges, type);
        if (rank.quality == 0) continue;
        const bool better =
            !best || rank.quality > bestRank.quality ||
            (rank.quality == bestRank.quality &&
             (rank.specificity > bestRank.specificity ||
              (rank.specificity == bestRank.specificity && rank.position < bestRank.position)));
        if (better) {
            best = type;
            bestRank = rank;
        }
    }
    return best;
}

}  // namespace outpost::server
