// outpost-datagen: self-play games that give the tuner its training positions.
//
// Each game starts from a few random legal moves from the start position (or a line of an EPD
// book), then the engine plays both sides with a fixed node budget per move. Positions from
// the game are written with its result once it ends, as "FEN [1.0] SCORE": the result and the
// search score in centipawns, both from White's point of view. The tuner reads the result and
// ignores the score; the network trainer (tools/nnue) blends the two. Only quiet positions are
// kept: not in check, the engine's chosen move neither a capture nor a promotion, and no mate
// score, so the static evaluation is a fair guess of the outcome.
// Games end by the rules, or by adjudication: a decisive score held for several moves, a long
// stretch of near-zero scores late in the game, or a ply limit.
// Reproducible: game i's opening comes from (seed, i) alone and each game starts from a cleared
// engine, and the games are written in their order, so a seed gives the same file whatever the
// concurrency. The output is appended to (the datagen loop adds chunk after chunk to one file).
// With --binary the games are written as compact game records instead (tools/nnue/game_record.h:
// the start position, then each ply's move and score, the kept positions marked), which the
// trainer replays into the same positions.
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "arg_reader.h"
#include "core/movegen.h"
#include "core/notation.h"
#include "core/position.h"
#include "engine.h"
#include "game_record.h"

using namespace outpost;

namespace {

// Adjudication thresholds.
constexpr int kWinScore = 1000;  // centipawns, from the side to move
constexpr int kWinPlies = 6;     // held this many plies in a row
constexpr int kDrawScore = 8;
constexpr int kDrawPlies = 16;
constexpr int kDrawEarliestPly = 80;
constexpr int kMaxGamePlies = 400;

struct Options {
    int games = 100;
    std::uint64_t nodes = 8000;
    int randomPlies = 8;
    int concurrency = 1;
    int maxScore = kWinScore;  // positions whose |score| is at least this are not kept
    unsigned seed = 1;
    std::string output = "selfplay.epd";
    std::string book;      // optional EPD/FEN file of opening positions
    bool network = false;  // play with the network evaluation (net N makes the data of net N+1)
    bool binary = false;   // write game records (game_record.h) instead of FEN lines
};

struct Labelled {
    std::string fen;
    int score;  // centipawns, White's point of view
};

struct GameRecord {
    std::vector<Labelled> positions;
    double result = 0.5;            // White's point of view
    nnue_data::RecordedGame moves;  // every ply searched, the kept ones marked (for --binary)
};

// Score from White's point of view, mates mapped far outside the adjudication window.
int whiteScore(const SearchResult& r, Color stm) {
    int v = r.info.score.kind == Score::Kind::Mate ? (r.info.score.value > 0 ? 30000 : -30000)
                                                   : r.info.score.value;
    return stm == White ? v : -v;
}

// The random stream of game g of a run: a mix of the run's seed and the game's number
// (splitmix64's finaliser), so runs with neighbouring seeds share no games.
std::uint64_t gameSeed(std::uint64_t seed, int game) {
    std::uint64_t z = seed * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(game) + 1;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

bool randomOpening(Position& pos, std::mt19937_64& rng, int plies) {
    for (int i = 0; i < plies; ++i) {
        MoveList moves;
        generateLegal(pos, moves);
        if (moves.empty()) return false;
        std::uniform_int_distribution<std::size_t> pick(0, moves.size() - 1);
        pos.makeMove(moves[pick(rng)].move);
    }
    MoveList moves;
    generateLegal(pos, moves);
    return !moves.empty();
}

GameRecord playGame(Engine& engine, const std::string& startFen, const Options& opt) {
    GameRecord game;
    game.moves.startFen = startFen;
    auto parsed = Position::fromFen(startFen);
    Position pos = *parsed;
    SearchRequest request;
    request.fen = startFen;
    request.limits.nodes = opt.nodes;
    engine.clearHash();

    int winStreak = 0, drawStreak = 0, lastSign = 0;
    for (int ply = 0;; ++ply) {
        const GameStatus status = pos.gameStatus();
        if (status == GameStatus::Checkmate) {
            game.result = pos.sideToMove() == White ? 0.0 : 1.0;
            break;
        }
        if (status != GameStatus::Ongoing || ply >= kMaxGamePlies) {
            game.result = 0.5;
            break;
        }
        const SearchResult r = engine.run(request);
        auto move = moveFromUci(pos, r.bestmove);
        if (!move) {
            std::cerr << "datagen: engine returned an illegal move " << r.bestmove << " in "
                      << pos.toFen() << "\n";
            game.result = 0.5;
            break;
        }
        const int score = whiteScore(r, pos.sideToMove());
        const bool mate = r.info.score.kind == Score::Kind::Mate;
        const bool kept = !mate && !pos.inCheck() && !pos.isCaptureOrPromotion(*move) &&
                          std::abs(score) < opt.maxScore;
        if (kept) game.positions.push_back({pos.toFen(), score});
        game.moves.plies.push_back({r.bestmove, score, kept});

        const int sign = score >= kWinScore ? 1 : score <= -kWinScore ? -1 : 0;
        winStreak = sign != 0 && sign == lastSign ? winStreak + 1 : (sign != 0 ? 1 : 0);
        lastSign = sign;
        drawStreak = std::abs(score) <= kDrawScore ? drawStreak + 1 : 0;
        if (winStreak >= kWinPlies) {
            game.result = sign > 0 ? 1.0 : 0.0;
            break;
        }
        if (ply >= kDrawEarliestPly && drawStreak >= kDrawPlies) {
            game.result = 0.5;
            break;
        }
        pos.makeMove(*move);
        request.moves.push_back(r.bestmove);
    }
    return game;
}

std::vector<std::string> readBook(const std::string& path) {
    std::vector<std::string> fens;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
        // An EPD line has four fields; FEN adds the two counters.
        std::istringstream fields(line);
        std::string board, side, castling, ep;
        if (!(fields >> board >> side >> castling >> ep)) continue;
        const std::string fen = board + " " + side + " " + castling + " " + ep + " 0 1";
        if (Position::fromFen(fen)) fens.push_back(fen);
    }
    return fens;
}

void usage() {
    std::cerr << "usage: outpost-datagen [--games N] [--nodes N] [--random-plies N] "
                 "[--concurrency N] [--seed N] [--max-score CP] [--book FILE.epd] [--network] "
                 "[--binary] [--out FILE]\n";
}

}  // namespace

int main(int argc, char** argv) {
    Options opt;
    tools::ArgReader args(argc, argv, usage);
    while (!args.done()) {
        const std::string a = args.take();
        if (a == "--games")
            opt.games = std::stoi(args.value());
        else if (a == "--nodes")
            opt.nodes = std::stoull(args.value());
        else if (a == "--random-plies")
            opt.randomPlies = std::stoi(args.value());
        else if (a == "--concurrency")
            opt.concurrency = std::max(1, std::stoi(args.value()));
        else if (a == "--seed")
            opt.seed = static_cast<unsigned>(std::stoul(args.value()));
        else if (a == "--max-score")
            opt.maxScore = std::stoi(args.value());
        else if (a == "--out")
            opt.output = args.value();
        else if (a == "--book")
            opt.book = args.value();
        else if (a == "--network")
            opt.network = true;
        else if (a == "--binary")
            opt.binary = true;
        else {
            usage();
            return a == "--help" ? 0 : 2;
        }
    }
    const std::vector<std::string> book =
        opt.book.empty() ? std::vector<std::string>{} : readBook(opt.book);
    std::ofstream out(opt.output, std::ios::app | std::ios::binary);
    if (!out) {
        std::cerr << "cannot write " << opt.output << "\n";
        return 2;
    }
    std::mutex outMutex;
    std::atomic<int> nextGame{0};
    long positions = 0;
    int wins = 0, losses = 0, draws = 0;
    // Games finish out of order with several workers; each is written only after every game
    // before it, so the file is the same whatever the concurrency.
    std::map<int, std::optional<GameRecord>> finished;
    int nextToWrite = 0;
    std::cerr << "datagen: seed " << opt.seed << ", " << opt.games << " games, " << opt.nodes
              << " nodes a move, concurrency " << opt.concurrency << "\n";

    auto writeInOrder = [&] {
        for (auto it = finished.begin(); it != finished.end() && it->first == nextToWrite;
             it = finished.erase(it), ++nextToWrite) {
            if (!it->second) continue;  // no opening: no game
            const GameRecord& game = *it->second;
            const char* label = game.result == 1.0   ? "[1.0]"
                                : game.result == 0.0 ? "[0.0]"
                                                     : "[0.5]";
            if (opt.binary) {
                nnue_data::RecordedGame moves = game.moves;
                moves.result = game.result == 1.0 ? 2 : game.result == 0.0 ? 0 : 1;
                if (!nnue_data::writeGameRecord(out, moves))
                    std::cerr << "datagen: game " << it->first + 1 << " has no record\n";
            } else {
                for (const Labelled& p : game.positions)
                    out << p.fen << " " << label << " " << p.score << "\n";
            }
            out.flush();
            positions += static_cast<long>(game.positions.size());
            (game.result == 1.0 ? wins : game.result == 0.0 ? losses : draws)++;
            std::cerr << "game " << it->first + 1 << "/" << opt.games << ": " << label << ", "
                      << game.positions.size() << " positions (total " << positions << ", +" << wins
                      << " -" << losses << " =" << draws << ")\n";
        }
    };

    auto worker = [&] {
        EngineOptions eo;
        eo.hashMb = 16;
        eo.threads = 1;
        eo.config.network = opt.network;
        Engine engine(eo);
        for (int g = nextGame++; g < opt.games; g = nextGame++) {
            // Game g's opening depends only on (seed, g), and playGame starts each game from a
            // cleared engine: the same seed gives the same games whatever the concurrency.
            std::mt19937_64 rng(gameSeed(opt.seed, g));
            Position pos;
            std::optional<GameRecord> game;
            if (!book.empty()) {
                std::uniform_int_distribution<std::size_t> pick(0, book.size() - 1);
                pos = *Position::fromFen(book[pick(rng)]);
                if (randomOpening(pos, rng, 2)) game = playGame(engine, pos.toFen(), opt);
            } else if (randomOpening(pos, rng, opt.randomPlies)) {
                game = playGame(engine, pos.toFen(), opt);
            }
            std::lock_guard<std::mutex> lock(outMutex);
            finished.emplace(g, std::move(game));
            writeInOrder();
        }
    };
    std::vector<std::thread> pool;
    for (int t = 0; t < opt.concurrency; ++t) pool.emplace_back(worker);
    for (auto& th : pool) th.join();
    return 0;
}
