// outpost-nnue-train: trains the evaluation network (engine/eval/nnue.h) on self-play positions.
//
// Input: outpost-datagen's lines, "FEN [result] score": the game's result and the search score
// in centipawns, both from White's point of view. Each position is packed into 32 bytes (the
// occupied squares and a 4-bit piece code per piece); its inputs are the 768-wide one-hot
// vectors of the network, kept sparse: a forward pass adds the ~30 weight rows of the pieces on
// the board, a backward pass updates only those rows.
//
// Loss: the mean squared difference between sigmoid(eval / K) and a target that blends the
// search score and the result: lambda x sigmoid(score / K) + (1 - lambda) x result, everything
// from the side to move's point of view (K: --wdl-scale, centipawns; by default fitted to the
// training positions, the K at which sigmoid(score / K) best predicts their results). Adam (or
// AdamW, with decoupled weight decay on the weights), mini-batches split across threads (each
// thread sums its own gradients; the sums are added in a fixed order, so a run repeats exactly
// for a given seed and thread count), the learning rate going from --lr to --lr-end
// exponentially (the default) or along a cosine. --init starts from a trained net's weights
// instead of random ones (fine-tuning it on new games), and grows it first when --hidden or
// --output-buckets ask for a larger shape (network_reshape.h: the grown net evaluates exactly as
// the old one). With output buckets, the material on the board picks the output layer each
// position trains (eval/nnue_buckets.h, the engine's own rule).
//
// Quantisation-aware: weights are clamped during training to the ranges the int16 file can hold
// (the output weights to +-127/64, so the engine's 16-bit multiply cannot overflow), and the
// exported file is read back through the engine's own loader and integer inference to report
// the error the engine will actually see. About the last fraction of the input is held out and
// only measured, in whole games (training_data.h says how games are told apart), so no position
// of a held-out game is trained on.
#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <memory>
#include <numbers>
#include <numeric>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "../tuner/arg_reader.h"
#include "core/position.h"
#include "eval/evaluate.h"
#include "eval/nnue.h"
#include "network_reshape.h"
#include "training_data.h"

using namespace outpost;

namespace {

constexpr int kInputs = nnue::kInputs;
constexpr int kMaxHidden = nnue::kMaxHidden;
// Training ranges that the quantised file can represent (see eval/nnue.h).
constexpr float kMaxFeatureWeight = 1.98f;  // 32 pieces x 1.98 x 255 stays inside int16
constexpr float kMaxOutputWeight = float(nnue::kMaxOutputWeight) / nnue::kQB;
// How many samples ahead of the one being trained on the next is fetched into the cache.
constexpr std::size_t kPrefetchAhead = 8;

enum class Optimizer { Adam, AdamW };
enum class Schedule { Exponential, Cosine };
constexpr double kDefaultWeightDecay = 0.01;  // AdamW's, when --weight-decay is not given

struct Options {
    std::vector<std::string> dataFiles;
    std::string output = "outpost.nnue";
    int epochs = 20;
    std::size_t batch = 16384;
    double learningRate = 0.001;
    double learningRateEnd = 0.00005;
    double lambda = 0.7;  // weight of the search score in the target (the rest: result)
    double wdlScale = 0;  // K: centipawns of eval per unit of the sigmoid's argument; 0: fitted
    double holdout = 0.05;
    std::size_t maxPositions = 0;  // 0: all
    int threads = 2;
    unsigned seed = 1;
    std::string verify;           // only measure this network file on the data
    std::string init;             // start from this network file instead of random weights
    bool mirror = true;           // also learn from positions mirrored a-h (twice the data, nearly)
    bool dedupe = false;          // drop positions seen before (training_data.h)
    bool dump = false;            // only print the samples read, one a line (to compare data files)
    int hidden = 0;               // neurons per perspective; 0: the --init net's, or kDefaultHidden
    int outputBuckets = 0;        // 0: the --init net's, or 1
    bool freezeFeatures = false;  // train the output layer only (new buckets on a trained net)
    bool roundOutput = false;  // the forward pass uses the output weights as the file rounds them
    Optimizer optimizer = Optimizer::Adam;
    double weightDecay = -1;  // AdamW's decoupled decay; < 0: kDefaultWeightDecay
    Schedule schedule = Schedule::Exponential;
};

// --- Data ------------------------------------------------------------------------------------

using nnue_data::Dataset;
using nnue_data::Sample;

Dataset readData(const Options& opt) {
    nnue_data::DataReader reader(opt.maxPositions);
    for (const std::string& path : opt.dataFiles) {
        std::ifstream in(path, std::ios::binary);
        if (!in) {
            std::cerr << "cannot read " << path << "\n";
            std::exit(2);
        }
        if (!reader.readFile(in)) break;  // datagen's text lines or its game records
    }
    return std::move(reader).finish(opt.holdout, opt.dedupe);
}

// The network inputs of a sample from both perspectives (side to move first); mirrored swaps
// the a- and h-files (chess is symmetric that way but for castling, which the inputs ignore).
int features(const Sample& s, bool mirrored, std::array<int, 32>& us, std::array<int, 32>& them) {
    const Color stm = Color(s.stm);
    const int flip = mirrored ? 7 : 0;
    int n = 0;
    for (std::uint64_t b = s.occupied; b; b &= b - 1, ++n) {
        const Square sq = Square(std::countr_zero(b) ^ flip);
        const int code = nnue_data::sampleCode(s, n);
        const Piece pc = makePiece(Color(code / 6), PieceType(code % 6 + 1));
        us[n] = nnue::featureIndex(stm, pc, sq);
        them[n] = nnue::featureIndex(~stm, pc, sq);
    }
    return n;
}

double sigmoid(double x) {
    return 1.0 / (1.0 + std::exp(-x));
}

double target(const Sample& s, const Options& opt) {
    return opt.lambda * sigmoid(s.score / opt.wdlScale) + (1 - opt.lambda) * (s.result / 2.0);
}

// K such that sigmoid(score / K) predicts the training positions' results best (least squares).
// Scores and results then speak the same language in the target, and the network learns
// centipawns on the scale of the search scores it was given: the scale the engine's margins were
// tuned for. A K that is too large makes the net's scores larger than the search's (the results,
// more decisive than the scores claim, pull them up): with K = 400 on data whose fitted K was 125,
// net 4 scored about 1.3 times the hand-crafted scale and lost ~100 Elo more than at 75%.
double fitWdlScale(const Dataset& data) {
    constexpr std::size_t kMaxFitSamples = 1'000'000;
    const std::size_t stride = std::max<std::size_t>(1, data.trainCount / kMaxFitSamples);
    auto error = [&](double k) {
        double sum = 0;
        for (std::size_t i = 0; i < data.trainCount; i += stride) {
            const Sample& s = data.samples[i];
            const double d = sigmoid(s.score / k) - s.result / 2.0;
            sum += d * d;
        }
        return sum;
    };
    // Golden-section search on log K; the error is unimodal in K over any sane range.
    constexpr double kMinK = 20, kMaxK = 2000, kTolerance = 1e-4;
    const double phi = (std::sqrt(5.0) - 1) / 2;
    double lo = std::log(kMinK), hi = std::log(kMaxK);
    double a = hi - phi * (hi - lo), b = lo + phi * (hi - lo);
    double ea = error(std::exp(a)), eb = error(std::exp(b));
    while (hi - lo > kTolerance) {
        if (ea < eb) {
            hi = b;
            b = a;
            eb = ea;
            a = hi - phi * (hi - lo);
            ea = error(std::exp(a));
        } else {
            lo = a;
            a = b;
            ea = eb;
            b = lo + phi * (hi - lo);
            eb = error(std::exp(b));
        }
    }
    return std::exp((lo + hi) / 2);
}

// --- The float network and its gradients --------------------------------------------------------

struct Params {
    Params(int hiddenSize, int bucketCount)
        : hidden(hiddenSize),
          buckets(bucketCount),
          w1(std::size_t(kInputs) * std::size_t(hiddenSize)),
          b1(std::size_t(hiddenSize)),
          w2(std::size_t(bucketCount) * 2 * std::size_t(hiddenSize)),
          b2(std::size_t(bucketCount)) {}

    int hidden;
    int buckets;
    std::vector<float> w1;  // [input][hidden]
    std::vector<float> b1;  // [hidden]
    std::vector<float> w2;  // [bucket][2 x hidden], side to move's half first
    std::vector<float> b2;  // [bucket]
    // With --round-output, w2 rounded to the file's steps of 1/QB, which the forward pass (and
    // the gradient of the features through it) uses; the updates still go to w2, so small ones
    // add up until a weight moves to the next step (a straight-through estimate). Empty
    // otherwise, and the forward pass uses w2.
    std::vector<float> w2Forward;

    void zero() {
        for (std::vector<float>* v : {&w1, &b1, &w2, &b2}) std::fill(v->begin(), v->end(), 0.f);
    }
};

// Forward (and with grad, backward) for one sample; returns its loss. The output is in units of
// nnue::kScale centipawns, as in the engine. Hidden is p.hidden, fixed at compile time for the
// usual widths (a loop whose length the compiler knows vectorises about twice as fast) and
// read at run time (Hidden = 0) for the others.
template <int Hidden>
double stepFor(const Params& p, const Sample& s, bool mirrored, const Options& opt, Params* grad) {
    std::array<int, 32> us, them;
    const int n = features(s, mirrored, us, them);
    const int hidden = Hidden ? Hidden : p.hidden;
    const std::size_t h = std::size_t(hidden);
    // The output layer of the bucket the position's material picks (the engine's rule).
    const int bucket = nnue::outputBucket(n, p.buckets);
    const std::size_t w2Offset = std::size_t(bucket) * 2 * h;
    alignas(64) float accUs[kMaxHidden], accThem[kMaxHidden];
    std::copy(p.b1.begin(), p.b1.end(), accUs);
    std::copy(p.b1.begin(), p.b1.end(), accThem);
    for (int k = 0; k < n; ++k) {
        const float* ru = &p.w1[std::size_t(us[k]) * h];
        const float* rt = &p.w1[std::size_t(them[k]) * h];
        for (int i = 0; i < hidden; ++i) accUs[i] += ru[i];
        for (int i = 0; i < hidden; ++i) accThem[i] += rt[i];
    }
    // The output's sum in kLanes interleaved partial sums, which the compiler keeps in vector
    // registers (one running sum forces a scalar loop), added up in a fixed order at the end.
    constexpr int kLanes = 16;
    static_assert(nnue::kHiddenStep % kLanes == 0);
    const float* __restrict w2 = (p.w2Forward.empty() ? p.w2 : p.w2Forward).data() + w2Offset;
    float partial[kLanes] = {};
    for (int i = 0; i < hidden; i += kLanes) {
        for (int j = 0; j < kLanes; ++j) {
            const float u = std::clamp(accUs[i + j], 0.f, 1.f);
            const float t = std::clamp(accThem[i + j], 0.f, 1.f);
            partial[j] += u * u * w2[i + j] + t * t * w2[h + i + j];
        }
    }
    float out = p.b2[std::size_t(bucket)];
    for (const float x : partial) out += x;
    const double scaleToSigmoid = nnue::kScale / opt.wdlScale;
    const double predicted = sigmoid(out * scaleToSigmoid);
    const double diff = predicted - target(s, opt);
    if (!grad) return diff * diff;

    const float g = float(2 * diff * predicted * (1 - predicted) * scaleToSigmoid);
    grad->b2[std::size_t(bucket)] += g;
    // The derivative of clamp(a, 0, 1)^2 is 2a inside the clamp's range and 0 outside it: 2 x the
    // clamped value below 1 (which is 0 at or below 0), and 0 from 1 up. Written without branches
    // and with unaliased pointers, so the compiler vectorises it (scalar, it was most of a step).
    alignas(64) float dUs[kMaxHidden], dThem[kMaxHidden];
    float* __restrict gw2 = grad->w2.data() + w2Offset;
    float* __restrict gb1 = grad->b1.data();
    for (int i = 0; i < hidden; ++i) {
        const float u = accUs[i], t = accThem[i];
        const float uc = std::clamp(u, 0.f, 1.f), tc = std::clamp(t, 0.f, 1.f);
        gw2[i] += g * uc * uc;
        gw2[h + i] += g * tc * tc;
        dUs[i] = u < 1.f ? g * w2[i] * 2 * uc : 0.f;
        dThem[i] = t < 1.f ? g * w2[h + i] * 2 * tc : 0.f;
        gb1[i] += dUs[i] + dThem[i];
    }
    // With --freeze-features the feature rows' gradients would only be thrown away: most of a
    // step's backward work, skipped.
    if (opt.freezeFeatures) return diff * diff;
    for (int k = 0; k < n; ++k) {
        float* ru = &grad->w1[std::size_t(us[k]) * h];
        float* rt = &grad->w1[std::size_t(them[k]) * h];
        for (int i = 0; i < hidden; ++i) ru[i] += dUs[i];
        for (int i = 0; i < hidden; ++i) rt[i] += dThem[i];
    }
    return diff * diff;
}

double step(const Params& p, const Sample& s, bool mirrored, const Options& opt, Params* grad) {
    switch (p.hidden) {
        case 256:
            return stepFor<256>(p, s, mirrored, opt, grad);
        case 512:
            return stepFor<512>(p, s, mirrored, opt, grad);
        default:
            return stepFor<0>(p, s, mirrored, opt, grad);
    }
}

// Adam; with a decay, AdamW: the weights also shrink by lr x decay of themselves each step,
// apart from the gradient's moments (decoupled weight decay, Loshchilov and Hutter).
struct Adam {
    static constexpr double kBeta1 = 0.9, kBeta2 = 0.999, kEpsilon = 1e-8;
    std::vector<float> m, v;
    explicit Adam(std::size_t n) : m(n), v(n) {}

    void apply(float* params, const float* grad, std::size_t n, std::size_t offset, double lr,
               long t, float limit, double decay = 0) {
        const double c1 = 1 - std::pow(kBeta1, double(t)), c2 = 1 - std::pow(kBeta2, double(t));
        const double keep = 1 - lr * decay;
        for (std::size_t i = 0; i < n; ++i) {
            float& mi = m[offset + i];
            float& vi = v[offset + i];
            mi = float(kBeta1 * mi + (1 - kBeta1) * grad[i]);
            vi = float(kBeta2 * vi + (1 - kBeta2) * double(grad[i]) * grad[i]);
            const double update = lr * (mi / c1) / (std::sqrt(vi / c2) + kEpsilon);
            params[i] = std::clamp(float(params[i] * keep - update), -limit, limit);
        }
    }
};

// The learning rate of step t (1-based) of total: from --lr to --lr-end, exponentially or along
// half a cosine.
double learningRate(const Options& opt, long t, long total) {
    const double progress = double(t - 1) / double(total);
    if (opt.schedule == Schedule::Cosine)
        return opt.learningRateEnd + 0.5 * (opt.learningRate - opt.learningRateEnd) *
                                         (1 + std::cos(std::numbers::pi * progress));
    return opt.learningRate * std::pow(opt.learningRateEnd / opt.learningRate, progress);
}

// --- Quantisation -------------------------------------------------------------------------------

std::int16_t quantise(float x, double scale, int limit) {
    return std::int16_t(std::clamp<long>(std::lround(x * scale), -limit, limit));
}

// --round-output: the output weights as the exported file will hold them (quantiseNetwork's rule),
// for the forward pass.
void roundOutputWeights(Params& p) {
    p.w2Forward.resize(p.w2.size());
    for (std::size_t i = 0; i < p.w2.size(); ++i)
        p.w2Forward[i] =
            float(quantise(p.w2[i], nnue::kQB, nnue::kMaxOutputWeight)) / float(nnue::kQB);
}

std::unique_ptr<nnue::Network> quantiseNetwork(const Params& p) {
    auto net = std::make_unique<nnue::Network>(p.hidden, p.buckets);
    for (std::size_t i = 0; i < p.w1.size(); ++i)
        net->featureWeights[i] = quantise(p.w1[i], nnue::kQA, 32767);
    for (std::size_t i = 0; i < p.b1.size(); ++i)
        net->featureBias[i] = quantise(p.b1[i], nnue::kQA, 32767);
    for (std::size_t i = 0; i < p.w2.size(); ++i)
        net->outputWeights[i] = quantise(p.w2[i], nnue::kQB, nnue::kMaxOutputWeight);
    for (std::size_t i = 0; i < p.b2.size(); ++i)
        net->outputBias[i] = std::int32_t(std::lround(double(p.b2[i]) * nnue::kQA * nnue::kQB));
    return net;
}

// The float weights a network file stands for: the start of a run that continues from a net
// (--init). Quantising them again gives the same file.
Params dequantiseNetwork(const nnue::Network& net) {
    Params p(net.hidden, net.outputBuckets);
    for (std::size_t i = 0; i < p.w1.size(); ++i)
        p.w1[i] = float(net.featureWeights[i]) / nnue::kQA;
    for (std::size_t i = 0; i < p.b1.size(); ++i) p.b1[i] = float(net.featureBias[i]) / nnue::kQA;
    for (std::size_t i = 0; i < p.w2.size(); ++i) p.w2[i] = float(net.outputWeights[i]) / nnue::kQB;
    for (std::size_t i = 0; i < p.b2.size(); ++i)
        p.b2[i] = float(double(net.outputBias[i]) / (double(nnue::kQA) * nnue::kQB));
    return p;
}

// --- Measuring ---------------------------------------------------------------------------------

double floatError(const Params& p, const Dataset& data, const Options& opt) {
    double sum = 0;
    for (std::size_t i = data.trainCount; i < data.samples.size(); ++i)
        sum += step(p, data.samples[i], false, opt, nullptr);
    return data.samples.size() > data.trainCount
               ? sum / double(data.samples.size() - data.trainCount)
               : 0;
}

// The held-out error of centipawn evaluations produced by evalCp(position), against the
// training target, or with resultsOnly against the game results alone (a yardstick that does not
// depend on --lambda).
template <typename EvalCp>
double engineError(const Dataset& data, Options opt, EvalCp evalCp, bool resultsOnly = false) {
    if (resultsOnly) opt.lambda = 0;
    double sum = 0;
    std::size_t n = 0;
    for (std::size_t i = data.trainCount; i < data.samples.size(); ++i) {
        const auto pos = Position::fromFen(nnue_data::sampleFen(data.samples[i]));
        if (!pos) continue;
        const double d = sigmoid(evalCp(*pos) / opt.wdlScale) - target(data.samples[i], opt);
        sum += d * d;
        ++n;
    }
    return n ? sum / double(n) : 0;
}

bool writeNetwork(const nnue::Network& net, const std::string& path) {
    std::ofstream out(path, std::ios::binary);
    const std::string bytes = nnue::serializeNetwork(net);
    out.write(bytes.data(), std::streamsize(bytes.size()));
    return bool(out);
}

std::unique_ptr<nnue::Network> readNetwork(const std::string& path, std::string& error) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        error = "cannot open the file";
        return nullptr;
    }
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return nnue::loadNetwork({reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size()},
                             &error);
}

// The engine's view of a network file on the held-out positions: its integer inference against
// the hand-crafted evaluation.
int reportEngineErrors(const std::string& path, const Dataset& data, const Options& opt) {
    std::string error;
    const auto net = readNetwork(path, error);
    if (!net) {
        std::cerr << "the engine cannot load " << path << ": " << error << "\n";
        return 1;
    }
    Evaluator classical;
    const auto network = [&](const Position& pos) { return nnue::evaluate(*net, pos); };
    const auto handCrafted = [&](const Position& pos) { return classical.evaluate(pos); };
    std::cout << std::setprecision(6) << "held-out error as the engine sees it: network "
              << engineError(data, opt, network) << ", hand-crafted "
              << engineError(data, opt, handCrafted) << " ("
              << data.samples.size() - data.trainCount << " positions)\n"
              << "against the game results alone: network " << engineError(data, opt, network, true)
              << ", hand-crafted " << engineError(data, opt, handCrafted, true) << "\n";
    return 0;
}

void usage() {
    std::cerr << "usage: outpost-nnue-train [--epochs N] [--batch N] [--lr X] [--lr-end X] "
                 "[--lambda X]\n"
                 "           [--wdl-scale CP|auto] [--holdout F] [--max-positions N] [--threads N] "
                 "[--seed N]\n"
                 "           [--no-mirror] [--dedupe] [--init FILE.nnue] [--hidden N] "
                 "[--output-buckets N] [--freeze-features] [--round-output]\n"
                 "           [--optimizer adam|adamw] [--weight-decay X] "
                 "[--schedule exponential|cosine]\n"
                 "           [--out FILE.nnue] DATA...\n"
                 "       outpost-nnue-train --verify FILE.nnue [--holdout F] DATA...\n"
                 "       outpost-nnue-train --dump [--holdout F] DATA...   (the samples, one a "
                 "line)\n"
                 "DATA: outpost-datagen's text lines or its --binary game records\n";
}

}  // namespace

int main(int argc, char** argv) {
    Options opt;
    tools::ArgReader args(argc, argv, usage);
    while (!args.done()) {
        const std::string a = args.take();
        if (a == "--epochs")
            opt.epochs = std::stoi(args.value());
        else if (a == "--batch")
            opt.batch = std::max<std::size_t>(1, std::stoul(args.value()));
        else if (a == "--lr")
            opt.learningRate = std::stod(args.value());
        else if (a == "--lr-end")
            opt.learningRateEnd = std::stod(args.value());
        else if (a == "--lambda")
            opt.lambda = std::stod(args.value());
        else if (a == "--wdl-scale") {
            const std::string v = args.value();
            opt.wdlScale = v == "auto" ? 0 : std::stod(v);
            if (opt.wdlScale < 0) {
                usage();
                return 2;
            }
        } else if (a == "--holdout")
            opt.holdout = std::clamp(std::stod(args.value()), 0.0, 0.5);
        else if (a == "--max-positions")
            opt.maxPositions = std::stoul(args.value());
        else if (a == "--threads")
            opt.threads = std::max(1, std::stoi(args.value()));
        else if (a == "--seed")
            opt.seed = unsigned(std::stoul(args.value()));
        else if (a == "--out")
            opt.output = args.value();
        else if (a == "--no-mirror")
            opt.mirror = false;
        else if (a == "--dedupe")
            opt.dedupe = true;
        else if (a == "--freeze-features")
            opt.freezeFeatures = true;
        else if (a == "--round-output")
            opt.roundOutput = true;
        else if (a == "--dump")
            opt.dump = true;
        else if (a == "--verify")
            opt.verify = args.value();
        else if (a == "--init")
            opt.init = args.value();
        else if (a == "--hidden")
            opt.hidden = std::stoi(args.value());
        else if (a == "--output-buckets")
            opt.outputBuckets = std::stoi(args.value());
        else if (a == "--weight-decay")
            opt.weightDecay = std::stod(args.value());
        else if (a == "--optimizer" || a == "--schedule") {
            const std::string v = args.value();
            if (a == "--optimizer" && (v == "adam" || v == "adamw"))
                opt.optimizer = v == "adam" ? Optimizer::Adam : Optimizer::AdamW;
            else if (a == "--schedule" && (v == "exponential" || v == "cosine"))
                opt.schedule = v == "cosine" ? Schedule::Cosine : Schedule::Exponential;
            else {
                usage();
                return 2;
            }
        } else if (a == "--help" || a.starts_with("--")) {
            usage();
            return a == "--help" ? 0 : 2;
        } else
            opt.dataFiles.push_back(a);
    }
    if (opt.dataFiles.empty()) {
        usage();
        return 2;
    }

    if (opt.weightDecay >= 0 && opt.optimizer != Optimizer::AdamW) {
        std::cerr << "--weight-decay needs --optimizer adamw\n";
        return 2;
    }
    if (opt.optimizer == Optimizer::AdamW && opt.weightDecay < 0)
        opt.weightDecay = kDefaultWeightDecay;

    // A net to start from is read (and grown to the shape asked for) before the data, so a
    // wrong path or shape fails at once.
    std::unique_ptr<nnue::Network> startNet;
    if (!opt.init.empty()) {
        std::string error;
        startNet = readNetwork(opt.init, error);
        if (!startNet) {
            std::cerr << "cannot start from " << opt.init << ": " << error << "\n";
            return 2;
        }
    }
    if (opt.hidden == 0) opt.hidden = startNet ? startNet->hidden : nnue::kDefaultHidden;
    if (opt.outputBuckets == 0) opt.outputBuckets = startNet ? startNet->outputBuckets : 1;
    if (!nnue::validShape(opt.hidden, opt.outputBuckets)) {
        std::cerr << "--hidden must be a multiple of " << nnue::kHiddenStep << " up to "
                  << nnue::kMaxHidden << " and --output-buckets 1 to " << nnue::kMaxOutputBuckets
                  << "\n";
        return 2;
    }
    if (startNet &&
        (startNet->hidden != opt.hidden || startNet->outputBuckets != opt.outputBuckets)) {
        std::string error;
        auto grown =
            nnue_data::reshapeNetwork(*startNet, opt.hidden, opt.outputBuckets, opt.seed, &error);
        if (!grown) {
            std::cerr << "cannot start from " << opt.init << ": " << error << "\n";
            return 2;
        }
        std::cout << "grew " << opt.init << " from " << startNet->hidden << " hidden and "
                  << startNet->outputBuckets << " output buckets to " << opt.hidden << " and "
                  << opt.outputBuckets << " (it evaluates as before)\n";
        startNet = std::move(grown);
    }

    const auto started = std::chrono::steady_clock::now();
    auto seconds = [&] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    };
    const Dataset data = readData(opt);
    std::cout << "read " << data.samples.size() << " positions (" << data.skipped
              << " lines skipped): " << data.trainCount << " to train, "
              << data.samples.size() - data.trainCount << " held out (" << data.heldOutGames
              << " of " << data.games << " games)";
    if (opt.dedupe) std::cout << ", " << data.duplicates << " repeated positions dropped";
    std::cout << ", " << std::fixed << std::setprecision(1) << seconds() << " s\n";
    if (opt.dump) {
        for (const Sample& s : data.samples)
            std::cout << nnue_data::sampleFen(s) << " " << s.score << " " << int(s.result) << "\n";
        return 0;
    }
    if (opt.wdlScale == 0) {
        if (data.trainCount == 0) {
            std::cerr << "no positions to fit K on; give --wdl-scale\n";
            return 1;
        }
        opt.wdlScale = fitWdlScale(data);
        std::cout << "K (--wdl-scale) fitted to the results: " << opt.wdlScale << " cp\n";
    }
    if (!opt.verify.empty()) return reportEngineErrors(opt.verify, data, opt);
    if (data.trainCount == 0) {
        std::cerr << "no training positions\n";
        return 1;
    }

    // Small random weights: about 30 active rows keep the accumulators inside the ReLU's range.
    // With --init, the weights of a trained net instead (fine-tuning it on new games).
    Params params(opt.hidden, opt.outputBuckets);
    std::mt19937_64 rng(opt.seed);
    if (startNet) {
        params = dequantiseNetwork(*startNet);
        std::cout << "starting from " << opt.init << "\n";
    } else {
        std::normal_distribution<float> featureInit(0.f, 0.04f), outputInit(0.f, 0.1f);
        for (float& w : params.w1) w = featureInit(rng);
        for (float& b : params.b1) b = 0.25f + featureInit(rng);
        for (float& w : params.w2) w = outputInit(rng);
    }

    const std::size_t threads = std::size_t(opt.threads);
    std::vector<Params> grads(threads, Params(opt.hidden, opt.outputBuckets));
    Adam adam(params.w1.size() + params.b1.size() + params.w2.size() + params.b2.size());
    const double decay = opt.optimizer == Optimizer::AdamW ? opt.weightDecay : 0.0;
    std::cout << std::defaultfloat << std::setprecision(6) << "net: " << opt.hidden << " hidden, "
              << "output buckets " << opt.outputBuckets << "; ";
    if (decay > 0)
        std::cout << "AdamW, weight decay " << decay;
    else
        std::cout << "Adam";
    std::cout << "; learning rate " << opt.learningRate << " -> " << opt.learningRateEnd
              << (opt.schedule == Schedule::Cosine ? ", cosine" : ", exponential")
              << (opt.roundOutput ? "; output weights rounded to the file's steps" : "") << "\n"
              << std::fixed;
    if (opt.roundOutput) roundOutputWeights(params);
    std::vector<std::size_t> order(data.trainCount);
    std::iota(order.begin(), order.end(), 0);
    const std::size_t batchesPerEpoch = (data.trainCount + opt.batch - 1) / opt.batch;
    const long totalBatches = long(batchesPerEpoch) * opt.epochs;
    long t = 0;

    std::cout << std::setprecision(6) << "epoch 0 held-out error " << floatError(params, data, opt)
              << "\n";
    for (int epoch = 1; epoch <= opt.epochs; ++epoch) {
        std::shuffle(order.begin(), order.end(), rng);
        double epochLoss = 0;
        for (std::size_t start = 0; start < data.trainCount; start += opt.batch) {
            const std::size_t end = std::min(data.trainCount, start + opt.batch);
            std::vector<double> losses(threads, 0.0);
            auto work = [&](std::size_t id) {
                Params& g = grads[id];
                g.zero();
                const std::size_t per = (end - start + threads - 1) / threads;
                const std::size_t from = start + id * per, to = std::min(end, from + per);
                for (std::size_t i = from; i < to; ++i) {
                    // The shuffled order reads samples from all over memory: ask for a later
                    // one now, so it is in the cache by its turn.
                    if (i + kPrefetchAhead < to)
                        __builtin_prefetch(&data.samples[order[i + kPrefetchAhead]]);
                    // Half the positions, a different half each epoch, are seen mirrored.
                    const bool mirrored =
                        opt.mirror && ((order[i] * 0x9E3779B97F4A7C15ULL +
                                        std::uint64_t(epoch) * 0xD1B54A32D192ED03ULL) >>
                                       63) != 0;
                    losses[id] += step(params, data.samples[order[i]], mirrored, opt, &g);
                }
            };
            std::vector<std::thread> pool;
            for (std::size_t id = 1; id < threads; ++id) pool.emplace_back(work, id);
            work(0);
            for (auto& th : pool) th.join();
            Params& g = grads[0];
            for (std::size_t id = 1; id < threads; ++id) {
                for (std::size_t i = 0; i < g.w1.size(); ++i) g.w1[i] += grads[id].w1[i];
                for (std::size_t i = 0; i < g.b1.size(); ++i) g.b1[i] += grads[id].b1[i];
                for (std::size_t i = 0; i < g.w2.size(); ++i) g.w2[i] += grads[id].w2[i];
                for (std::size_t i = 0; i < g.b2.size(); ++i) g.b2[i] += grads[id].b2[i];
            }
            for (const double l : losses) epochLoss += l;
            // Mean gradients; the learning rate goes from --lr to --lr-end (--schedule). AdamW's
            // decay shrinks the weights, not the biases.
            const float inv = 1.f / float(end - start);
            for (std::vector<float>* v : {&g.w1, &g.b1, &g.w2, &g.b2})
                for (float& x : *v) x *= inv;
            ++t;
            const double lr = learningRate(opt, t, totalBatches);
            std::size_t offset = 0;
            if (!opt.freezeFeatures) {
                adam.apply(params.w1.data(), g.w1.data(), g.w1.size(), offset, lr, t,
                           kMaxFeatureWeight, decay);
                adam.apply(params.b1.data(), g.b1.data(), g.b1.size(), offset + g.w1.size(), lr, t,
                           kMaxFeatureWeight);
            }
            offset += g.w1.size() + g.b1.size();
            adam.apply(params.w2.data(), g.w2.data(), g.w2.size(), offset, lr, t, kMaxOutputWeight,
                       decay);
            offset += g.w2.size();
            adam.apply(params.b2.data(), g.b2.data(), g.b2.size(), offset, lr, t, 1e6f);
            if (opt.roundOutput) roundOutputWeights(params);
        }
        // Written every epoch, so a long run can be stopped with a usable net.
        const auto net = quantiseNetwork(params);
        if (!writeNetwork(*net, opt.output)) {
            std::cerr << "cannot write " << opt.output << "\n";
            return 2;
        }
        std::cout << "epoch " << epoch << " train error " << epochLoss / double(data.trainCount)
                  << " held-out error " << floatError(params, data, opt) << std::setprecision(1)
                  << " (" << seconds() << " s)" << std::setprecision(6) << "\n"
                  << std::flush;
    }
    std::cout << "wrote " << opt.output << "\n";
    return reportEngineErrors(opt.output, data, opt);
}
