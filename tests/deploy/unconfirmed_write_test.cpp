// A write that reached the store but whose replica acks did not come in time (issue 34): it is
// published like any other state (the opponent sees the move, so nobody plays on against a
// state the others do not see), and its answer is 503 write_unconfirmed, which tells the client
// to read the game. Before, it was answered store_unavailable and never published.
#include <catch2/catch.hpp>
#include <mutex>

#include "../server/delegating_store.h"
#include "../server/test_support.h"

using namespace outpost::server;
using namespace outpost::server::testing;
using Verb = boost::beast::http::verb;

namespace {

// The memory store, whose writes can be made Unconfirmed (kept, as a primary keeps them).
class UnconfirmingStore final : public DelegatingStore {
  public:
    void unconfirm(bool on) { unconfirm_ = on; }

    StoreStatus create(const GameRecord& game) override {
        const StoreStatus status = DelegatingStore::create(game);
        return status == StoreStatus::Ok && unconfirm_ ? StoreStatus::Unconfirmed : status;
    }
    StoreStatus update(const GameRecord& game, std::uint64_t expectedVersion) override {
        const StoreStatus status = DelegatingStore::update(game, expectedVersion);
        return status == StoreStatus::Ok && unconfirm_ ? StoreStatus::Unconfirmed : status;
    }

  private:
    std::atomic<bool> unconfirm_{false};
};

}  // namespace

TEST_CASE("Unconfirmed write: published, and answered 503 write_unconfirmed",
          "[deploy][replication]") {
    auto store = std::make_shared<UnconfirmingStore>();
    HandlerFixture f(testConfig(), store);
    auto [id, whiteToken] = f.createGame(nlohmann::json{{"engine", {{"side", "none"}}}});
    const std::string blackToken = f.lastInviteToken;

    std::mutex mutex;
    std::vector<std::uint64_t> published;
    const auto subscription = f.bus->subscribe(id, [&](const GameEvent& event) {
        std::lock_guard lock(mutex);
        if (event.kind == GameEvent::Kind::GameChanged) published.push_back(event.version);
    });

    store->unconfirm(true);
    auto moved = f.call(Verb::post, "/api/v1/games/" + id + "/moves", R"({"move":"e4"})",
                        {{"Authorization", "Bearer " + whiteToken}});
    CHECK(moved->status() == 503);
    CHECK(moved->errorCode() == "write_unconfirmed");
    CHECK(moved->response()[boost::beast::http::field::retry_after] != "");
    {
        // The opponent's feed has the move that the store holds.
        std::lock_guard lock(mutex);
        CHECK(published == std::vector<std::uint64_t>{2});
    }
    auto read = f.call(Verb::get, "/api/v1/games/" + id);
    REQUIRE(read->status() == 200);
    CHECK(read->json()["version"] == 2);
    CHECK(read->json()["moves"] == nlohmann::json::array({"e2e4"}));

    // A resignation too: the game ends for both.
    auto resigned = f.call(Verb::post, "/api/v1/games/" + id + "/resign", "{}",
                           {{"Authorization", "Bearer " + blackToken}});
    CHECK(resigned->status() == 503);
    CHECK(resigned->errorCode() == "write_unconfirmed");
    {
        std::lock_guard lock(mutex);
        CHECK(published == std::vector<std::uint64_t>{2, 3});
    }

    // A new game whose creation is unconfirmed: the client learns it was not confirmed (it has
    // no tokens to read it with; it creates another).
    auto created = f.call(Verb::post, "/api/v1/games", "{}");
    CHECK(created->status() == 503);
    CHECK(created->errorCode() == "write_unconfirmed");
    f.bus->unsubscribe(subscription);
}
