#include "game_record.h"

#include <algorithm>
#include <array>
#include <istream>
#include <optional>
#include <ostream>
#include <string>

#include "core/notation.h"
#include "core/position.h"

namespace outpost::nnue_data {
namespace {

constexpr std::size_t kMaxFenLength = 255;
constexpr std::size_t kMaxPlies = 65535;
constexpr int kMaxRecordedScore = 32000;
constexpr std::uint16_t kKeptBit = 1u << 15;
constexpr int kPromotionShift = 12;
constexpr std::string_view kPromotionLetters = " nbrq";  // code 0: no promotion

// A UCI square ("e4") as 0..63 (a1 = 0), or -1.
int squareIndex(char file, char rank) {
    if (file < 'a' || file > 'h' || rank < '1' || rank > '8') return -1;
    return (rank - '1') * 8 + (file - 'a');
}

std::optional<std::uint16_t> encodeMove(std::string_view uci) {
    if (uci.size() != 4 && uci.size() != 5) return std::nullopt;
    const int from = squareIndex(uci[0], uci[1]), to = squareIndex(uci[2], uci[3]);
    if (from < 0 || to < 0) return std::nullopt;
    std::size_t promotion = 0;
    if (uci.size() == 5) {
        promotion = kPromotionLetters.find(uci[4]);
        if (promotion == std::string_view::npos || promotion == 0) return std::nullopt;
    }
    return std::uint16_t(from | to << 6 | promotion << kPromotionShift);
}

std::string decodeMove(std::uint16_t code) {
    const int from = code & 63, to = (code >> 6) & 63;
    const std::size_t promotion = (code >> kPromotionShift) & 7;
    std::string uci{char('a' + from % 8), char('1' + from / 8), char('a' + to % 8),
                    char('1' + to / 8)};
    if (promotion > 0 && promotion < kPromotionLetters.size()) uci += kPromotionLetters[promotion];
    return uci;
}

void put16(std::string& bytes, std::uint16_t v) {
    bytes += char(v & 0xff);
    bytes += char(v >> 8);
}

std::uint16_t get16(const unsigned char* p) {
    return std::uint16_t(p[0] | p[1] << 8);
}

// The position as a sample, with the game's result and the score of the search made there.
Sample sampleOf(const Position& pos, int whiteResult, int whiteScore) {
    Sample s{};
    s.stm = std::uint8_t(pos.sideToMove());
    int n = 0;
    for (int sq = 0; sq < 64; ++sq) {
        const Piece p = pos.pieceOn(Square(sq));
        if (p == NoPiece) continue;
        const int code = int(colorOf(p)) * 6 + int(typeOf(p)) - 1;
        s.occupied |= std::uint64_t(1) << sq;
        s.pieces[std::size_t(n / 2)] |= std::uint8_t(code << (4 * (n % 2)));
        ++n;
    }
    const int stmScore = s.stm == White ? whiteScore : -whiteScore;
    s.score = std::int16_t(std::clamp(stmScore, -kMaxRecordedScore, kMaxRecordedScore));
    s.result = std::uint8_t(s.stm == White ? whiteResult : 2 - whiteResult);
    return s;
}

}  // namespace

bool writeGameRecord(std::ostream& out, const RecordedGame& game) {
    if (game.startFen.empty() || game.startFen.size() > kMaxFenLength ||
        game.plies.size() > kMaxPlies || game.result < 0 || game.result > 2)
        return false;
    std::string bytes(kGameRecordMark);
    bytes += char(game.result);
    bytes += char(game.startFen.size());
    bytes += game.startFen;
    put16(bytes, std::uint16_t(game.plies.size()));
    for (const RecordedPly& ply : game.plies) {
        const auto move = encodeMove(ply.uci);
        if (!move) return false;
        put16(bytes, std::uint16_t(*move | (ply.kept ? kKeptBit : 0)));
        const int score = std::clamp(ply.score, -kMaxRecordedScore, kMaxRecordedScore);
        put16(bytes, std::uint16_t(std::int16_t(score)));
    }
    out.write(bytes.data(), std::streamsize(bytes.size()));
    return bool(out);
}

bool skipToNextRecord(std::istream& in, std::streampos from) {
    in.clear();
    in.seekg(from + std::streamoff(1));
    // Scan in blocks, keeping the mark's length less one byte of overlap between blocks.
    const std::size_t overlap = kGameRecordMark.size() - 1;
    std::string window;
    std::streampos windowStart = in.tellg();
    std::array<char, 4096> block;
    while (true) {
        in.read(block.data(), std::streamsize(block.size()));
        const std::streamsize got = in.gcount();
        if (got <= 0) break;
        window.append(block.data(), std::size_t(got));
        const std::size_t at = window.find(kGameRecordMark);
        if (at != std::string::npos) {
            in.clear();
            in.seekg(windowStart + std::streamoff(at));
            return true;
        }
        const std::size_t keep = std::min(overlap, window.size());
        windowStart += std::streamoff(window.size() - keep);
        window.erase(0, window.size() - keep);
    }
    in.clear();
    in.seekg(0, std::ios::end);
    return false;
}

RecordRead readGameRecord(std::istream& in, RecordedGame& game) {
    const std::streampos start = in.tellg();
    // A cut-short record leaves the stream where the record began (and readable again).
    auto cutShort = [&] {
        in.clear();
        in.seekg(start);
        return RecordRead::CutShort;
    };
    std::array<char, 6> head;
    in.read(head.data(), head.size());
    if (in.gcount() == 0) {
        in.clear();
        return RecordRead::End;
    }
    if (in.gcount() < std::streamsize(head.size())) return cutShort();
    if (std::string_view(head.data(), kGameRecordMark.size()) != kGameRecordMark)
        return RecordRead::Corrupt;
    const int result = static_cast<unsigned char>(head[4]);
    const std::size_t fenLength = static_cast<unsigned char>(head[5]);
    if (result > 2 || fenLength == 0) return RecordRead::Corrupt;

    std::string fen(fenLength, '\0');
    in.read(fen.data(), std::streamsize(fenLength));
    unsigned char countBytes[2];
    in.read(reinterpret_cast<char*>(countBytes), 2);
    if (!in) return cutShort();
    const std::size_t count = get16(countBytes);
    std::vector<unsigned char> body(count * 4);
    in.read(reinterpret_cast<char*>(body.data()), std::streamsize(body.size()));
    if (!in) return cutShort();

    game.startFen = std::move(fen);
    game.result = result;
    game.plies.resize(count);
    for (std::size_t i = 0; i < count; ++i) {
        const std::uint16_t move = get16(&body[4 * i]);
        game.plies[i].uci = decodeMove(std::uint16_t(move & ~kKeptBit));
        game.plies[i].kept = (move & kKeptBit) != 0;
        game.plies[i].score = std::int16_t(get16(&body[4 * i + 2]));
    }
    return RecordRead::Game;
}

std::vector<ParsedLine> replayGame(const RecordedGame& game) {
    auto start = Position::fromFen(game.startFen);
    if (!start) return {};
    Position pos = *start;
    std::vector<ParsedLine> kept;
    for (const RecordedPly& ply : game.plies) {
        if (ply.kept) kept.push_back({sampleOf(pos, game.result, ply.score), pos.gamePly()});
        const auto move = moveFromUci(pos, ply.uci);
        if (!move) return {};
        pos.makeMove(*move);
    }
    return kept;
}

bool startsWithGameRecord(std::istream& in) {
    const std::streampos at = in.tellg();
    std::array<char, 4> mark{};
    in.read(mark.data(), mark.size());
    const bool record = in.gcount() == std::streamsize(mark.size()) &&
                        std::string_view(mark.data(), mark.size()) == kGameRecordMark;
    in.clear();
    in.seekg(at);
    return record;
}

}  // namespace outpost::nnue_data
