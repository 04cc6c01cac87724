// Game reviews with scripted searchers: the pool's review priority, the routes (start, reuse,
// get, stream, stop, bounds), and the annotated PGN export.
#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <condition_variable>
#include <mutex>
#include <vector>

#include "delegating_store.h"
#include "recording_outbox.h"
#include "review/review_pgn.h"
#include "review/review_service.h"
#include "test_support.h"
#include "ws/ws_connection.h"

using namespace outpost::server;
using namespace outpost::server::testing;
using http::verb;

namespace {

// Polls GET /api/v1/reviews/{id} until the review is no longer running.
nlohmann::json waitFinished(HandlerFixture& f, const std::string& id) {
    const auto deadline = std::chrono::steady_clock::now() + kWait;
    for (;;) {
        auto sink = f.call(verb::get, "/api/v1/reviews/" + id);
        nlohmann::json review = sink->json();
        if (review.value("status", "") != "running" ||
            std::chrono::steady_clock::now() > deadline) {
            return review;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
}

void play(HandlerFixture& f, const std::string& id, const std::string& token,
          const std::vector<std::string>& moves, const std::string& blackToken) {
    bool white = true;
    for (const std::string& move : moves) {
        auto sink = f.call(verb::post, "/api/v1/games/" + id + "/moves",
                           nlohmann::json{{"move", move}}.dump(),
                           {{"Authorization", "Bearer " + (white ? token : blackToken)}});
        REQUIRE(sink->status() == 200);
        white = !white;
    }
}

}  // namespace

TEST_CASE("pool: a review position waits while game and analysis jobs wait", "[review][pool]") {
    auto control = std::make_shared<FakeControl>();
    control->closeGate();
    SearchPool pool(PoolOptions{1, 8, 8}, fakeSearchers(control));
    std::mutex mutex;
    std::vector<std::string> order;
    auto job = [&](const std::string& name) {
        JobCallbacks callbacks;
        callbacks.onDone = [&, name](const JobOutcome&) {
            std::lock_guard lock(mutex);
            order.push_back(name);
        };
        return callbacks;
    };
    outpost::SearchRequest request;
    request.limits.depth = 1;
    REQUIRE(pool.submit("r", request, job("review1"), JobPriority::Review).admission ==
            Admission::Accepted);
    REQUIRE(control->waitStarted(1));  // the only searcher is busy with the review's position
    pool.submit("r", request, job("review2"), JobPriority::Review);
    pool.submit("r", request, job("review3"), JobPriority::Review);
    // The game's reply preempts the running review position (which reports stopped at once).
    pool.submit("g", request, job("game"), JobPriority::Game);
    pool.submit("a", request, job("analysis"), JobPriority::Analysis);
    control->openGate();
    REQUIRE(pool.waitIdle(kWait));
    CHECK(order == std::vector<std::string>{"review1", "game", "analysis", "review2", "review3"});
}

TEST_CASE("pool: reviews leave one searcher free for live work", "[review][pool]") {
    auto control = std::make_shared<FakeControl>();
    control->closeGate();
    SearchPool pool(PoolOptions{2, 8, 8}, fakeSearchers(control));
    outpost::SearchRequest request;
    request.limits.depth = 1;
    for (int i = 0; i < 3; ++i) pool.submit("r", request, {}, JobPriority::Review);
    REQUIRE(control->waitStarted(1));
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK(control->started.load() == 1);  // the second searcher does not take a review
    CHECK(pool.running() == 1);
    pool.submit("g", request, {}, JobPriority::Game);
    REQUIRE(control->waitStarted(2));  // it takes the game's reply at once
    control->openGate();
    REQUIRE(pool.waitIdle(kWait));
    CHECK(control->finished.load() == 4);
}

TEST_CASE("pool: a live job preempts a running review position", "[review][pool]") {
    auto control = std::make_shared<FakeControl>();
    control->closeGate();
    SearchPool pool(PoolOptions{1, 8, 8}, fakeSearchers(control));
    outpost::SearchRequest request;
    request.limits.depth = 1;
    std::atomic<bool> reviewStopped{false};
    JobCallbacks review;
    review.onDone = [&](const JobOutcome& outcome) { reviewStopped = outcome.result.stopped; };
    pool.submit("r", request, std::move(review), JobPriority::Review);
    REQUIRE(control->waitStarted(1));
    pool.submit("g", request, {}, JobPriority::Game);
    // The review position was stopped and the game's reply took the searcher.
    REQUIRE(control->waitStarted(2));
    CHECK(reviewStopped.load());
    CHECK(pool.preemptions() == 1);
    control->openGate();
    REQUIRE(pool.waitIdle(kWait));
}

TEST_CASE("review: a pasted game is reviewed to the end, with a summary", "[review]") {
    HandlerFixture f;
    auto started = f.call(verb::post, "/api/v1/review", R"({"moves":["e4","e5","Nf3"]})");
    REQUIRE((started->status() == 202 || started->status() == 200));  // 200: done already
    nlohmann::json review = started->json();
    CHECK(review["status"] == (started->status() == 202 ? "running" : "done"));
    CHECK(review["total"] == 4);
    CHECK(review["limitsApplied"]["default"] == true);
    CHECK(review["limitsApplied"]["nodes"] == f.context.config.reviewNodes);
    const std::string id = review["id"];
    CHECK(started->response()[http::field::location] == "/api/v1/reviews/" + id);

    review = waitFinished(f, id);
    REQUIRE(review["status"] == "done");
    CHECK(review["done"] == 4);
    REQUIRE(review["plies"].size() == 3);
    CHECK(review["san"] == nlohmann::json::array({"e4", "e5", "Nf3"}));
    const auto& first = review["plies"][0];
    CHECK(first["ply"] == 1);
    CHECK(first["side"] == "white");
    CHECK(first["move"] == "e2e4");
    // The scripted searcher prefers the first legal move, which e4 is not.
    CHECK(first.contains("best"));
    CHECK(first["best"]["move"] != "e2e4");
    CHECK(review["summary"]["white"]["moves"] == 2);
    CHECK(review["summary"]["black"]["moves"] == 1);

    // Bad inputs: a PGN with an illegal move, both pgn and moves, an oversized game.
    auto illegal = f.call(verb::post, "/api/v1/review", R"({"pgn":"1. e4 e5 2. Ke3"})");
    CHECK(illegal->status() == 422);
    CHECK(illegal->errorCode() == "illegal_move");
    CHECK(f.call(verb::post, "/api/v1/review", R"({"pgn":"1. e4","moves":["e4"]})")->status() ==
          400);
    nlohmann::json many = {{"moves", nlohmann::json::array()}};
    for (std::size_t i = 0; i <= kMaxReviewPlies; ++i) many["moves"].push_back("e2e4");
    CHECK(f.call(verb::post, "/api/v1/review", many.dump())->status() == 413);
    CHECK(f.call(verb::get, "/api/v1/reviews/pnothere")->status() == 404);
}

TEST_CASE("review: a pasted game without moves is refused, not reviewed as the start position",
          "[review]") {
    // An empty PGN, or one of tags, comments or a result only, started a review of the start
    // position (total 1, no plies): a pasted clipboard that held something else looked reviewed.
    HandlerFixture f;
    for (const std::string pgn :
         {"", "  \n\t ", "[Event \"x\"]\n[White \"a\"]\n", "{a comment} ; more\n", "*", "1. 2. *",
          "(1. e4 e5) *", "[FEN \"8/8/8/4k3/8/8/3QK3/8 w - - 0 1\"]\n\n*"}) {
        INFO(pgn);
        auto refused = f.call(verb::post, "/api/v1/review", nlohmann::json{{"pgn", pgn}}.dump());
        CHECK(refused->status() == 422);
        CHECK(refused->errorCode() == "bad_pgn");
        CHECK(refused->json()["error"]["message"].get<std::string>().find("no moves") !=
              std::string::npos);
    }
    for (const nlohmann::json& body : {nlohmann::json{{"moves", nlohmann::json::array()}},
                                       nlohmann::json{{"fen", "8/8/8/4k3/8/8/3QK3/8 w - - 0 1"},
                                                      {"moves", nlohmann::json::array()}}}) {
        INFO(body.dump());
        auto refused = f.call(verb::post, "/api/v1/review", body.dump());
        CHECK(refused->status() == 422);
        CHECK(refused->errorCode() == "invalid_value");
    }
    // An empty FEN with the moves is a field left empty (it reviewed from the start position).
    auto emptyFen = f.call(verb::post, "/api/v1/review", R"({"fen":"","moves":["e4","e5"]})");
    CHECK(emptyFen->status() == 422);
    CHECK(emptyFen->errorCode() == "invalid_fen");
    // One move is a game: a set-up position with its first move is reviewed.
    auto one = f.call(
        verb::post, "/api/v1/review",
        nlohmann::json{{"pgn", "[FEN \"8/8/8/4k3/8/8/3QK3/8 w - - 0 1\"]\n\n1. Qd4+ *"}}.dump());
    CHECK(one->status() / 100 == 2);
    CHECK(one->json()["total"] == 2);
}

TEST_CASE("review: stop, and the per-client and overall bounds", "[review]") {
    ServerConfig config = testConfig();
    config.maxReviews = 2;
    HandlerFixture f(config);
    f.control->closeGate();
    auto started = f.call(verb::post, "/api/v1/review", R"({"moves":["e4","e5"]})");
    REQUIRE(started->status() == 202);
    const std::string id = started->json()["id"];

    // One review per client at a time: 429 with Retry-After.
    auto again = f.call(verb::post, "/api/v1/review", R"({"moves":["d4"]})");
    CHECK(again->status() == 429);
    CHECK(again->errorCode() == "rate_limited");
    CHECK(again->response()[http::field::retry_after] == "1");

    // The stream starts with the review as it is.
    auto stream = f.call(verb::get, "/api/v1/reviews/" + id + "/stream", "", {}, false);
    REQUIRE(stream->wait(1));
    CHECK(nlohmann::json::parse(stream->lines()[0])["review"]["status"] == "running");

    auto stopped = f.call(verb::post, "/api/v1/reviews/" + id + "/stop");
    REQUIRE(stopped->status() == 200);
    CHECK(stopped->json()["status"] == "stopped");
    CHECK(stopped->json().contains("summary"));
    // The stream ends with the stopped review.
    REQUIRE(stream->wait());
    CHECK(nlohmann::json::parse(stream->lines().back())["review"]["status"] == "stopped");
    CHECK(waitFinished(f, id)["status"] == "stopped");
    f.control->openGate();

    // The slot is free again.
    auto next = f.call(verb::post, "/api/v1/review", R"({"moves":["d4"]})");
    CHECK(next->status() == 202);
    CHECK(f.call(verb::post, "/api/v1/reviews/" + std::string(next->json()["id"]) + "/stop")
              ->status() == 200);
}

TEST_CASE("review: overall bound answers 503 overloaded", "[review]") {
    ServerConfig config = testConfig();
    config.maxReviews = 1;
    HandlerFixture f(config);
    f.control->closeGate();
    REQUIRE(f.call(verb::post, "/api/v1/review", R"({"moves":["e4"]})")->status() == 202);
    Request request{verb::post, "/api/v1/review", 11};
    request.body() = R"({"moves":["d4"]})";
    request.prepare_payload();
    auto sink = std::make_shared<RecordingSink>();
    handleHttp(f.context, std::move(request), ClientInfo{"10.0.0.9"}, sink);
    REQUIRE(sink->wait());
    CHECK(sink->status() == 503);
    CHECK(sink->errorCode() == "overloaded");
    f.control->openGate();
}

TEST_CASE("review: a stored game's review is kept per version and exported in the PGN",
          "[review]") {
    HandlerFixture f;
    auto [id, token] = f.createGame();
    const std::string black = f.lastInviteToken;
    play(f, id, token, {"f3", "e5", "g4"}, black);

    CHECK(f.call(verb::get, "/api/v1/games/" + id + "/review")->status() == 404);
    // The game says whether it keeps a review (a page asked GET .../review only about the games
    // its browser had seen reviewed, as a 404 is logged): null, then the kept one.
    // (The id is copied: clang, the ASan build's compiler, does not let a lambda capture a
    // structured binding.)
    auto reviewOfGame = [&f, gameId = id] {
        return f.call(verb::get, "/api/v1/games/" + gameId)->json();
    };
    REQUIRE(reviewOfGame().contains("review"));
    CHECK(reviewOfGame()["review"].is_null());
    auto started = f.call(verb::post, "/api/v1/games/" + id + "/review");
    REQUIRE((started->status() == 202 || started->status() == 200));  // 200: done already
    const std::string reviewId = started->json()["id"];
    CHECK(reviewId == id + ".4");
    CHECK(started->json()["gameId"] == id);
    nlohmann::json review = waitFinished(f, reviewId);
    REQUIRE(review["status"] == "done");
    CHECK(reviewOfGame()["review"] ==
          nlohmann::json{{"id", reviewId}, {"status", "done"}, {"gameVersion", 4}});

    // Asked again for the same version: the same review, finished (200).
    auto reused = f.call(verb::post, "/api/v1/games/" + id + "/review");
    CHECK(reused->status() == 200);
    CHECK(reused->json()["id"] == reviewId);
    auto kept = f.call(verb::get, "/api/v1/games/" + id + "/review");
    REQUIRE(kept->status() == 200);
    CHECK(kept->json()["plies"] == review["plies"]);

    auto pgn = f.call(verb::get, "/api/v1/games/" + id + "/pgn?review=1");
    REQUIRE(pgn->status() == 200);
    const std::string text = pgn->response().body();
    CHECK(text.find("[%eval ") != std::string::npos);
    auto plain = f.call(verb::get, "/api/v1/games/" + id + "/pgn");
    CHECK(plain->response().body().find("[%eval") == std::string::npos);

    // A new move: a new version, a new review.
    play(f, id, black, {"Qh4#"}, black);
    CHECK(reviewOfGame()["version"] == 5);
    CHECK(reviewOfGame()["review"]["gameVersion"] == 4);  // the kept review is of an older version
    auto newer = f.call(verb::post, "/api/v1/games/" + id + "/review");
    REQUIRE((newer->status() == 202 || newer->status() == 200));
    CHECK(newer->json()["id"] == id + ".5");
    waitFinished(f, id + ".5");
    // The game keeps the latest version's review only.
    CHECK(f.call(verb::get, "/api/v1/reviews/" + reviewId)->status() == 200);  // still in memory
    CHECK(f.call(verb::get, "/api/v1/games/" + id + "/review")->json()["id"] == id + ".5");
    CHECK(reviewOfGame()["review"]["id"] == id + ".5");
    // A kept review the store cannot read: the game does not say (GET .../review answers 500).
    const std::string other = f.createGame().first;
    REQUIRE(f.context.store->putGameReview(other, "not a review") == StoreStatus::Ok);
    CHECK_FALSE(f.call(verb::get, "/api/v1/games/" + other)->json().contains("review"));
    // Only GET /games/{id} says it: other answers carrying the game do not look.
    CHECK_FALSE(f.call(verb::post, "/api/v1/games", "{}")->json().contains("review"));
}

TEST_CASE("review: a stopped review of a game version is started again when asked again",
          "[review]") {
    HandlerFixture f;
    auto [id, token] = f.createGame();
    play(f, id, token, {"e4", "e5", "Nf3"}, f.lastInviteToken);
    f.control->closeGate();
    auto started = f.call(verb::post, "/api/v1/games/" + id + "/review");
    REQUIRE(started->status() == 202);
    const std::string reviewId = started->json()["id"];
    CHECK(f.call(verb::get, "/api/v1/games/" + id)->json()["review"]["status"] == "running");
    auto stopped = f.call(verb::post, "/api/v1/reviews/" + reviewId + "/stop");
    REQUIRE(stopped->status() == 200);
    REQUIRE(stopped->json()["status"] == "stopped");

    // docs/review.md: "a stopped or failed one is started again" (not the stopped one, 200).
    auto again = f.call(verb::post, "/api/v1/games/" + id + "/review");
    CHECK(again->status() == 202);
    CHECK(again->json()["id"] == reviewId);
    CHECK(again->json()["status"] == "running");
    f.control->openGate();
    CHECK(waitFinished(f, reviewId)["status"] == "done");
    CHECK(f.call(verb::get, "/api/v1/games/" + id + "/review")->json()["status"] == "done");
}

namespace {
// A memory store whose game-review writes wait until released: the moment between a review's
// end and its store write, held open.
class HeldReviewWrites final : public DelegatingStore {
  public:
    StoreStatus putGameReview(std::string_view gameId, const std::string& doc) override {
        {
            std::unique_lock lock(mutex_);
            ++waiting_;
            changed_.notify_all();
            changed_.wait_for(lock, kWait, [&] { return open_; });
        }
        return DelegatingStore::putGameReview(gameId, doc);
    }
    bool waitForWrite() {
        std::unique_lock lock(mutex_);
        return changed_.wait_for(lock, kWait, [&] { return waiting_ > 0; });
    }
    void release() {
        std::lock_guard lock(mutex_);
        open_ = true;
        changed_.notify_all();
    }

  private:
    std::mutex mutex_;
    std::condition_variable changed_;
    int waiting_ = 0;
    bool open_ = false;
};
}  // namespace

TEST_CASE("review: the PGN export carries a review that ended here before the store has it",
          "[review]") {
    // (A TSan CI run, 29 November: the review read done, and the export read the store before
    // the review's write reached it, so it came without annotations.)
    auto store = std::make_shared<HeldReviewWrites>();
    HandlerFixture f(testConfig(), store);
    auto [id, token] = f.createGame();
    play(f, id, token, {"f3", "e5", "g4"}, f.lastInviteToken);
    auto started = f.call(verb::post, "/api/v1/games/" + id + "/review");
    REQUIRE((started->status() == 202 || started->status() == 200));
    REQUIRE(waitFinished(f, id + ".4")["status"] == "done");
    REQUIRE(store->waitForWrite());
    // The write is held: the store has no review yet, the export has this replica's.
    CHECK(store->getGameReview(id).status == StoreStatus::NotFound);
    auto pgn = f.call(verb::get, "/api/v1/games/" + id + "/pgn?review=1");
    REQUIRE(pgn->status() == 200);
    CHECK(pgn->response().body().find("[%eval ") != std::string::npos);
    store->release();
}

TEST_CASE("review PGN: evals, NAGs and the better line as a variation", "[review][pgn]") {
    CHECK(review::pgnEval({{"cp", 34}}) == "0.34");
    CHECK(review::pgnEval({{"cp", -120}}) == "-1.20");
    CHECK(review::pgnEval({{"cp", -5}}) == "-0.05");
    CHECK(review::pgnEval({{"mate", -3}}) == "#-3");
    CHECK(review::pgnEval({{"mate", 0}}).empty());

    GameRecord game;
    game.initialFen = ChessState::kStartFen;
    game.moves = {"f2f3", "e7e5", "g2g4"};
    nlohmann::json reviewDoc = {{"moves", game.moves},
                                {"plies",
                                 {{{"ply", 1},
                                   {"class", "inaccuracy"},
                                   {"after", {{"cp", -40}}},
                                   {"best", {{"pvSan", {"e4", "e5"}}}}},
                                  {{"ply", 2}, {"class", "best"}, {"after", {{"cp", -30}}}},
                                  {{"ply", 3},
                                   {"class", "blunder"},
                                   {"after", {{"mate", -1}}},
                                   {"best", {{"pvSan", {"d4"}}}}}}}};
    std::string pgn = gamePgn(game, review::pgnAnnotations(game, reviewDoc));
    std::replace(pgn.begin(), pgn.end(), '\n', ' ');  // lines wrap at 79 characters
    INFO(pgn);
    CHECK(pgn.find("1. f3 $6 { [%eval -0.40] } ( 1. e4 e5 ) 1... e5 { [%eval -0.30] } 2. g4 $4 "
                   "{ [%eval #-1] } ( 2. d4 ) *") != std::string::npos);
    // A review of other moves annotates nothing.
    reviewDoc["moves"] = {"e2e4"};
    CHECK(review::pgnAnnotations(game, reviewDoc).empty());
}

namespace {

// A review's final message has come: one of type "review" no longer running.
bool reviewFinished(const std::vector<nlohmann::json>& messages) {
    return std::any_of(messages.begin(), messages.end(), [](const nlohmann::json& message) {
        return message.value("type", "") == "review" && message["review"]["status"] != "running";
    });
}

}  // namespace

TEST_CASE("review over WebSocket: the review, progress per position, the final review",
          "[review][ws]") {
    HandlerFixture f;
    auto outbox = std::make_shared<RecordingOutbox>();
    auto connection = std::make_shared<WsConnection>(f.context, ClientInfo{"127.0.0.1"}, outbox);
    connection->onMessage(R"({"type":"review","id":7,"moves":["e4","e5"]})");
    REQUIRE(outbox->waitUntil(reviewFinished));
    const auto messages = outbox->messages();
    REQUIRE(messages.size() >= 2);
    CHECK(messages.front()["type"] == "review");
    CHECK(messages.front()["id"] == 7);
    std::size_t progress = 0;
    for (const auto& message : messages) {
        if (message["type"] == "reviewProgress") {
            ++progress;
            CHECK(message["id"] == 7);
            CHECK(message["total"] == 3);
        }
    }
    CHECK(progress == 3);  // one per position (two moves complete with the last ones)
    CHECK(messages.back()["review"]["status"] == "done");
    CHECK(messages.back()["review"]["plies"].size() == 2);

    // Stop by id.
    f.control->closeGate();
    auto stopping = std::make_shared<RecordingOutbox>();
    auto other = std::make_shared<WsConnection>(f.context, ClientInfo{"127.0.0.1"}, stopping);
    const int before = f.control->started.load();
    other->onMessage(R"({"type":"review","id":"r","moves":["d4"]})");
    REQUIRE(f.control->waitStarted(before + 1));
    // The review's first message: the connection follows it from then on.
    REQUIRE(stopping->waitFor(1));
    other->onMessage(R"({"type":"stop","id":"r"})");
    REQUIRE(stopping->waitUntil(reviewFinished));
    CHECK(stopping->messages().back()["review"]["status"] == "stopped");
    f.control->openGate();
    other->onClose();
    connection->onClose();
}

// With reviewsYield (the server's default), a review position never runs beside a live search:
// it waits while one runs, and a live job stops every running review position.
TEST_CASE("pool: with reviewsYield, review positions run only while no live search runs",
          "[review][pool]") {
    auto control = std::make_shared<FakeControl>();
    control->closeGate();
    PoolOptions options{2, 8, 8};
    options.reviewSearchers = 2;
    options.reviewsYield = true;
    SearchPool pool(options, fakeSearchers(control));
    std::atomic<int> reviewsDone{0};
    JobCallbacks reviewCallbacks;
    reviewCallbacks.onDone = [&](const JobOutcome&) { ++reviewsDone; };
    REQUIRE(pool.submit("r", outpost::SearchRequest{}, reviewCallbacks, JobPriority::Review)
                .admission == Admission::Accepted);
    REQUIRE(pool.submit("r", outpost::SearchRequest{}, reviewCallbacks, JobPriority::Review)
                .admission == Admission::Accepted);
    REQUIRE(control->waitStarted(2));  // idle: both review positions run
    // A live job stops both of them at once, not only one.
    std::atomic<bool> liveDone{false};
    JobCallbacks liveCallbacks;
    liveCallbacks.onDone = [&](const JobOutcome&) { liveDone = true; };
    REQUIRE(
        pool.submit("a", outpost::SearchRequest{}, liveCallbacks, JobPriority::Game).admission ==
        Admission::Accepted);
    REQUIRE(pool.preemptions() == 2);
    // While the live search runs (held at the gate), a new review position does not start.
    REQUIRE(control->waitStarted(3));
    const int startedWithLive = control->started.load();
    REQUIRE(pool.submit("r", outpost::SearchRequest{}, reviewCallbacks, JobPriority::Review)
                .admission == Admission::Accepted);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    CHECK(control->started.load() == startedWithLive);
    control->openGate();
    REQUIRE(pool.waitIdle(std::chrono::seconds(10)));
    CHECK(liveDone.load());
    CHECK(reviewsDone.load() == 3);
}
