#include "training_data.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "core/types.h"
#include "game_record.h"

namespace outpost::nnue_data {
namespace {

constexpr int kMaxPieces = 32;
constexpr int kMaxScore = 32000;

// The FEN letter of each piece code (colour x 6 + type - 1).
constexpr std::string_view kPieceChars = "PNBRQKpnbrqk";

int pieceCode(char c) {
    const auto at = kPieceChars.find(c);
    return at == std::string_view::npos ? -1 : int(at);
}

// Splits off the next whitespace-separated field; empty at the end of the line.
std::string_view nextField(std::string_view& rest) {
    const auto begin = rest.find_first_not_of(" \t\r");
    if (begin == std::string_view::npos) {
        rest = {};
        return {};
    }
    rest.remove_prefix(begin);
    const auto end = std::min(rest.find_first_of(" \t\r"), rest.size());
    const std::string_view field = rest.substr(0, end);
    rest.remove_prefix(end);
    return field;
}

// The whole field as an integer, or nothing (a sign, digits and nothing else).
std::optional<int> wholeInt(std::string_view field) {
    int value = 0;
    const char* end = field.data() + field.size();
    const auto [ptr, ec] = std::from_chars(field.data(), end, value);
    if (ec != std::errc{} || ptr != end) return std::nullopt;
    return value;
}

// The board field into codes by square (a1 = 0); false unless it is 8 ranks of 8 squares.
bool parseBoard(std::string_view board, std::array<int, 64>& codeAt) {
    codeAt.fill(-1);
    int rank = 7, file = 0;
    for (const char c : board) {
        if (c == '/') {
            if (file != 8 || rank == 0) return false;
            --rank;
            file = 0;
        } else if (c >= '1' && c <= '8') {
            file += c - '0';
            if (file > 8) return false;
        } else {
            const int code = pieceCode(c);
            if (code < 0 || file > 7) return false;
            codeAt[rank * 8 + file] = code;
            ++file;
        }
    }
    return rank == 0 && file == 8;
}

}  // namespace

std::optional<ParsedLine> parseLine(std::string_view line) {
    std::string_view rest = line;
    const std::string_view board = nextField(rest), side = nextField(rest);
    const std::string_view castling = nextField(rest), ep = nextField(rest);
    const std::string_view half = nextField(rest), full = nextField(rest);
    const std::string_view result = nextField(rest), scoreField = nextField(rest);
    if (scoreField.empty() || !nextField(rest).empty()) return std::nullopt;
    if (castling.empty() || ep.empty() || !wholeInt(half)) return std::nullopt;
    const auto fullmove = wholeInt(full);
    const auto score = wholeInt(scoreField);
    if (!fullmove || *fullmove < 1 || !score) return std::nullopt;

    ParsedLine parsed;
    Sample& s = parsed.sample;
    if (result == "[1.0]")
        s.result = 2;
    else if (result == "[0.5]")
        s.result = 1;
    else if (result == "[0.0]")
        s.result = 0;
    else
        return std::nullopt;
    if (side != "w" && side != "b") return std::nullopt;
    s.stm = side == "w" ? White : Black;
    parsed.ply = 2 * (*fullmove - 1) + (side == "b" ? 1 : 0);

    std::array<int, 64> codeAt;
    if (!parseBoard(board, codeAt)) return std::nullopt;
    s.occupied = 0;
    s.pieces.fill(0);
    int n = 0;
    for (int sq = 0; sq < 64; ++sq) {
        if (codeAt[sq] < 0) continue;
        if (n == kMaxPieces) return std::nullopt;
        s.occupied |= std::uint64_t(1) << sq;
        s.pieces[n / 2] |= std::uint8_t(codeAt[sq] << (4 * (n % 2)));
        ++n;
    }
    const int stmScore = s.stm == White ? *score : -*score;
    s.score = std::int16_t(std::clamp(stmScore, -kMaxScore, kMaxScore));
    if (s.stm == Black) s.result = std::uint8_t(2 - s.result);
    return parsed;
}

std::string sampleFen(const Sample& s) {
    std::array<int, 64> codeAt;
    codeAt.fill(-1);
    int n = 0;
    for (std::uint64_t b = s.occupied; b; b &= b - 1, ++n)
        codeAt[std::countr_zero(b)] = sampleCode(s, n);
    std::string fen;
    for (int rank = 7; rank >= 0; --rank) {
        int empty = 0;
        for (int file = 0; file < 8; ++file) {
            const int code = codeAt[rank * 8 + file];
            if (code < 0) {
                ++empty;
                continue;
            }
            if (empty) fen += char('0' + std::exchange(empty, 0));
            fen += kPieceChars[std::size_t(code)];
        }
        if (empty) fen += char('0' + empty);
        if (rank) fen += '/';
    }
    fen += s.stm == White ? " w - - 0 1" : " b - - 0 1";
    return fen;
}

bool DataReader::read(std::istream& in) {
    int lastPly = -1;  // a new file starts a new game
    for (std::string line; !full() && std::getline(in, line);) {
        if (in.eof()) break;  // a last line without its newline may still be being written
        const auto parsed = parseLine(line);
        if (!parsed) {
            ++skipped_;
            continue;
        }
        if (parsed->ply <= lastPly || lastPly < 0) gameStarts_.push_back(samples_.size());
        lastPly = parsed->ply;
        samples_.push_back(parsed->sample);
    }
    return !full();
}

bool DataReader::readGames(std::istream& in) {
    RecordedGame game;
    while (!full()) {
        const std::streampos start = in.tellg();
        const RecordRead status = readGameRecord(in, game);
        if (status == RecordRead::End || status == RecordRead::CutShort) break;
        if (status == RecordRead::Corrupt) {
            // A piece of a record (a datagen stopped mid-write, then resumed): go on at the
            // next record's mark.
            ++skipped_;
            if (!skipToNextRecord(in, start)) break;
            continue;
        }
        const std::vector<ParsedLine> kept = replayGame(game);
        if (kept.empty()) {
            // A game that keeps no position is no damage; one whose moves do not replay is.
            if (std::any_of(game.plies.begin(), game.plies.end(),
                            [](const RecordedPly& p) { return p.kept; }))
                ++skipped_;
            continue;
        }
        gameStarts_.push_back(samples_.size());
        for (const ParsedLine& line : kept) {
            if (full()) break;
            samples_.push_back(line.sample);
        }
    }
    return !full();
}

bool DataReader::readFile(std::istream& in) {
    return startsWithGameRecord(in) ? readGames(in) : read(in);
}

std::size_t holdoutCut(const std::vector<std::size_t>& gameStarts, std::size_t count,
                       double holdout) {
    const std::size_t wanted = count - std::min(count, std::size_t(double(count) * holdout));
    if (wanted == count) return count;
    // Never more than half held out (a long last game must not take the training data).
    std::size_t best = count;
    std::size_t bestDistance = 0;
    for (const std::size_t start : gameStarts) {
        if (start == 0 || 2 * start < count) continue;
        const std::size_t distance = start > wanted ? start - wanted : wanted - start;
        if (best == count || distance < bestDistance) {
            best = start;
            bestDistance = distance;
        }
    }
    return best;
}

std::size_t DataReader::removeDuplicates() {
    auto mix = [](std::uint64_t z) {  // splitmix64's finaliser
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    };
    const std::size_t n = samples_.size();
    std::vector<std::pair<std::uint64_t, std::size_t>> keys(n);
    for (std::size_t i = 0; i < n; ++i) {
        const Sample& s = samples_[i];
        std::uint64_t low, high;
        std::memcpy(&low, s.pieces.data(), sizeof low);
        std::memcpy(&high, s.pieces.data() + sizeof low, sizeof high);
        keys[i] = {mix(s.occupied ^ mix(low ^ mix(high ^ mix(s.stm)))), i};
    }
    std::sort(keys.begin(), keys.end());
    std::vector<bool> keep(n, true);
    for (std::size_t i = 1; i < n; ++i)
        if (keys[i].first == keys[i - 1].first) keep[keys[i].second] = false;
    keys = {};

    // Compact in place; a game start moves to its game's first kept sample (a game with none
    // left joins the next one).
    std::vector<std::size_t> starts;
    std::size_t kept = 0, nextStart = 0;
    for (std::size_t i = 0; i < n; ++i) {
        while (nextStart < gameStarts_.size() && gameStarts_[nextStart] <= i) {
            if (starts.empty() || starts.back() != kept) starts.push_back(kept);
            ++nextStart;
        }
        if (keep[i]) samples_[kept++] = samples_[i];
    }
    if (!starts.empty() && starts.back() == kept) starts.pop_back();
    samples_.resize(kept);
    gameStarts_ = std::move(starts);
    return n - kept;
}

Dataset DataReader::finish(double holdout, bool dedupe) && {
    Dataset data;
    if (dedupe) data.duplicates = removeDuplicates();
    data.trainCount = holdoutCut(gameStarts_, samples_.size(), holdout);
    data.samples = std::move(samples_);
    data.skipped = skipped_;
    data.games = gameStarts_.size();
    data.heldOutGames =
        std::size_t(gameStarts_.end() -
                    std::lower_bound(gameStarts_.begin(), gameStarts_.end(), data.trainCount));
    if (data.trainCount == data.samples.size()) data.heldOutGames = 0;
    return data;
}

}  // namespace outpost::nnue_data
