// POST /api/v1/games with an Idempotency-Key (games/idempotent_create.h): a retry gets the game
// the key made, never a second one; without the header a creation is as it was.
#include <atomic>
#include <catch2/catch.hpp>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "delegating_store.h"
#include "handlers/game_handlers.h"
#include "http/cors.h"
#include "test_support.h"

using namespace outpost::server;
using namespace outpost::server::testing;
using http::verb;

namespace {

const std::string kKey = "5f0c2a9e-8b1d-4c3e-9a47-2d6b1e0f7c18";
const std::string kBody = R"({"engine":{"side":"black","level":2}})";

std::shared_ptr<RecordingSink> createWithKey(HandlerFixture& f, const std::string& key,
                                             const std::string& body = kBody, bool wait = true) {
    return f.call(verb::post, "/api/v1/games", body, {{"Idempotency-Key", key}}, wait);
}

std::string replayedHeader(RecordingSink& sink) {
    return std::string(sink.response()["Idempotent-Replayed"]);
}

// A store whose next create() is held until released (a first request slow to store its game),
// or is made and then answered as a store that never confirmed it (`unanswer`), or dropped and
// answered Unavailable (`lose`).
class CreateStore final : public DelegatingStore {
  public:
    std::atomic<bool> holdNext{false};
    std::atomic<bool> unanswerNext{false};
    std::atomic<bool> loseNext{false};

    StoreStatus create(const GameRecord& game) override {
        if (unanswerNext.exchange(false)) {
            DelegatingStore::create(game);
            return StoreStatus::Unanswered;
        }
        if (loseNext.exchange(false)) return StoreStatus::Unavailable;
        if (holdNext.exchange(false)) {
            std::unique_lock lock(mutex_);
            held_ = true;
            changed_.notify_all();
            changed_.wait(lock, [&] { return released_; });
        }
        return DelegatingStore::create(game);
    }
    // Waits until a create() is held.
    bool waitHeld() {
        std::unique_lock lock(mutex_);
        return changed_.wait_for(lock, std::chrono::seconds(10), [&] { return held_; });
    }
    void release() {
        std::lock_guard lock(mutex_);
        released_ = true;
        changed_.notify_all();
    }

  private:
    std::mutex mutex_;
    std::condition_variable changed_;
    bool held_ = false;
    bool released_ = false;
};

}  // namespace

TEST_CASE("idempotent create: a retry with the key and body gets the same game and tokens",
          "[server][handlers][idempotency]") {
    HandlerFixture f;
    auto first = createWithKey(f, kKey);
    REQUIRE(first->status() == 201);
    CHECK(replayedHeader(*first).empty());
    const auto made = first->json();

    // The same JSON with other spacing and key order is the same request.
    auto again = createWithKey(f, kKey, R"({ "engine": {"level": 2, "side": "black"} })");
    REQUIRE(again->status() == 201);
    CHECK(replayedHeader(*again) == "true");
    const auto replayed = again->json();
    CHECK(replayed.at("id") == made.at("id"));
    CHECK(replayed.at("playerToken") == made.at("playerToken"));
    CHECK(replayed.at("playerSide") == "white");
    CHECK(std::string(again->response()[http::field::location]) ==
          "/api/v1/games/" + made.at("id").get<std::string>());
    CHECK(f.context.store->count() == 1);

    // The replayed token moves.
    const std::string token = replayed.at("playerToken").get<std::string>();
    auto move = f.call(verb::post, "/api/v1/games/" + made.at("id").get<std::string>() + "/moves",
                       R"({"move":"e4"})", {{"Authorization", "Bearer " + token}});
    CHECK(move->status() < 300);
}

TEST_CASE("idempotent create: between people the replay carries both tokens and the colours",
          "[server][handlers][idempotency]") {
    HandlerFixture f;
    const std::string body = R"({"engine":{"side":"none"},"color":"random"})";
    auto first = createWithKey(f, kKey, body);
    REQUIRE(first->status() == 201);
    auto again = createWithKey(f, kKey, body);
    REQUIRE(again->status() == 201);
    for (const char* field : {"id", "playerToken", "playerSide", "inviteToken", "inviteSide"}) {
        INFO(field);
        CHECK(again->json().at(field) == first->json().at(field));
    }
    CHECK(f.context.store->count() == 1);
}

TEST_CASE("idempotent create: the key with another body is refused 422 idempotency_key_reused",
          "[server][handlers][idempotency]") {
    HandlerFixture f;
    REQUIRE(createWithKey(f, kKey)->status() == 201);
    auto other = createWithKey(f, kKey, R"({"engine":{"side":"white","level":2}})");
    CHECK(other->status() == 422);
    CHECK(other->errorCode() == "idempotency_key_reused");
    CHECK(f.context.store->count() == 1);
}

TEST_CASE("idempotent create: a refused body claims no key, so the corrected one is created",
          "[server][handlers][idempotency]") {
    HandlerFixture f;
    auto refused = createWithKey(f, kKey, R"({"engine":{"side":"black","level":99}})");
    CHECK(refused->status() == 422);
    CHECK(refused->errorCode() == "invalid_value");
    auto corrected = createWithKey(f, kKey);
    CHECK(corrected->status() == 201);
    CHECK(replayedHeader(*corrected).empty());
}

TEST_CASE("idempotent create: keys are scoped to the client, which never gets another's tokens",
          "[server][handlers][idempotency]") {
    HandlerFixture f;
    auto mine = createWithKey(f, kKey);
    REQUIRE(mine->status() == 201);
    f.clientAddress = "203.0.113.9";
    auto theirs = createWithKey(f, kKey);
    REQUIRE(theirs->status() == 201);
    CHECK(replayedHeader(*theirs).empty());
    CHECK(theirs->json().at("id") != mine->json().at("id"));
    CHECK(theirs->json().at("playerToken") != mine->json().at("playerToken"));
    CHECK(f.context.store->count() == 2);
}

TEST_CASE("idempotent create: without the header every request makes a game, as before",
          "[server][handlers][idempotency]") {
    HandlerFixture f;
    auto first = f.call(verb::post, "/api/v1/games", kBody);
    auto second = f.call(verb::post, "/api/v1/games", kBody);
    REQUIRE(first->status() == 201);
    REQUIRE(second->status() == 201);
    CHECK(replayedHeader(*second).empty());
    CHECK(first->json().at("id") != second->json().at("id"));
    CHECK(f.context.store->count() == 2);
}

TEST_CASE("idempotent create: a malformed key is refused 400 bad_request, storing nothing",
          "[server][handlers][idempotency]") {
    HandlerFixture f;
    for (const std::string& key :
         {std::string(), std::string(256, 'k'), std::string("two words"),
          std::string("caf\xc3\xa9"), std::string("tab\there"), std::string("nul\0byte", 8)}) {
        INFO(key.size());
        auto refused = createWithKey(f, key);
        CHECK(refused->status() == 400);
        CHECK(refused->errorCode() == "bad_request");
        CHECK(refused->json()["error"]["message"].get<std::string>().find("Idempotency-Key") !=
              std::string::npos);
    }
    CHECK(f.context.store->count() == 0);
    // 255 visible characters are a key.
    CHECK(createWithKey(f, std::string(255, '~'))->status() == 201);

    // Twice in one request, even alike: which one would a proxy have read?
    Request request{verb::post, "/api/v1/games", 11};
    request.insert("Idempotency-Key", kKey);
    request.insert("Idempotency-Key", kKey);
    request.body() = kBody;
    request.prepare_payload();
    auto sink = std::make_shared<RecordingSink>();
    handleCreateGame(f.context, request, ClientInfo{"127.0.0.1"}, sink);
    CHECK(sink->status() == 400);
    CHECK(sink->errorCode() == "bad_request");
    CHECK(f.context.store->count() == 1);
}

TEST_CASE("idempotent create: two requests with one key at once make one game",
          "[server][handlers][idempotency]") {
    // The first claims the key and is slow to store the game; the second, meanwhile, finds the
    // claim and no game: it stores the game under the claimed id itself, and the first, finding
    // the id taken, answers with that game.
    auto store = std::make_shared<CreateStore>();
    HandlerFixture f(testConfig(), store);
    store->holdNext = true;
    auto first = createWithKey(f, kKey, kBody, false);
    REQUIRE(store->waitHeld());
    auto second = createWithKey(f, kKey);
    REQUIRE(second->status() == 201);
    store->release();
    REQUIRE(first->wait());
    REQUIRE(first->status() == 201);
    CHECK(first->json().at("id") == second->json().at("id"));
    CHECK(first->json().at("playerToken") == second->json().at("playerToken"));
    CHECK(replayedHeader(*first) == "true");
    CHECK(f.context.store->count() == 1);

    // And many at once, on the executor's threads.
    HandlerFixture g;
    std::vector<std::shared_ptr<RecordingSink>> sinks;
    for (int i = 0; i < 8; ++i) sinks.push_back(createWithKey(g, "burst-key", kBody, false));
    for (auto& sink : sinks) {
        REQUIRE(sink->wait());
        CHECK(sink->status() == 201);
        CHECK(sink->json().at("id") == sinks.front()->json().at("id"));
    }
    CHECK(g.context.store->count() == 1);
}

TEST_CASE("idempotent create: after a write_unconfirmed creation the retry gets the stored game",
          "[server][handlers][idempotency]") {
    auto store = std::make_shared<CreateStore>();
    HandlerFixture f(testConfig(), store);
    store->unanswerNext = true;
    auto first = createWithKey(f, kKey);
    CHECK(first->status() == 503);
    CHECK(first->errorCode() == "write_unconfirmed");
    REQUIRE(f.context.store->count() == 1);  // it was stored after all
    auto retry = createWithKey(f, kKey);
    REQUIRE(retry->status() == 201);
    CHECK(replayedHeader(*retry) == "true");
    CHECK(f.context.store->count() == 1);
    const std::string id = retry->json().at("id").get<std::string>();
    CHECK(f.context.store->get(id).status == StoreStatus::Ok);
}

TEST_CASE("idempotent create: after a lost creation the retry makes the game, once",
          "[server][handlers][idempotency]") {
    auto store = std::make_shared<CreateStore>();
    HandlerFixture f(testConfig(), store);
    store->loseNext = true;
    auto first = createWithKey(f, kKey);
    CHECK(first->status() == 503);
    CHECK(first->errorCode() == "store_unavailable");
    REQUIRE(f.context.store->count() == 0);
    auto retry = createWithKey(f, kKey);
    REQUIRE(retry->status() == 201);
    CHECK(replayedHeader(*retry).empty());
    auto third = createWithKey(f, kKey);
    REQUIRE(third->status() == 201);
    CHECK(replayedHeader(*third) == "true");
    CHECK(third->json().at("id") == retry->json().at("id"));
    CHECK(f.context.store->count() == 1);
}

TEST_CASE("idempotent create: a replay does not count against the per-minute game quota",
          "[server][handlers][idempotency]") {
    ServerConfig config = testConfig();
    config.perClientGamesPerMinute = 1;
    HandlerFixture f(config);
    REQUIRE(createWithKey(f, kKey)->status() == 201);
    CHECK(createWithKey(f, kKey)->status() == 201);
    CHECK(createWithKey(f, kKey)->status() == 201);
    auto fresh = createWithKey(f, "another-key");
    CHECK(fresh->status() == 429);
    CHECK(fresh->errorCode() == "too_many_games");
}

TEST_CASE("idempotent create: a page of another origin may send the key and read the replay",
          "[server][handlers][idempotency]") {
    const std::vector<std::string> allowed = {"https://board.example"};
    Request request{verb::options, "/api/v1/games", 11};
    request.set(http::field::origin, "https://board.example");
    request.set(http::field::access_control_request_method, "POST");
    request.set(http::field::access_control_request_headers, "content-type, idempotency-key");
    const Response preflight = preflightResponse(request, allowed);
    CHECK(
        std::string(preflight[http::field::access_control_allow_headers]).find("Idempotency-Key") !=
        std::string::npos);
    request.method(verb::post);
    Response response{http::status::created, 11};
    applyCors(request, response, allowed);
    CHECK(std::string(response[http::field::access_control_expose_headers])
              .find("Idempotent-Replayed") != std::string::npos);
}
