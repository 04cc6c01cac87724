// outpost-tuner: a Texel-style fit of the evaluation weights to game results.
//
// Every training position is evaluated once with a trace (eval/trace.h), which records how often
// each weight was used; the evaluation is linear in the weights given that trace, so the fit can
// re-score all positions for new weights without running the evaluation again. The fit minimises
// the mean squared difference between the game result (1, 0.5, 0 for White) and
// sigmoid(K * eval) by full-batch gradient descent (Adam), after choosing K so the current weights
// fit best. The result is written as a new engine/eval/weight_values.h.
//
// Input: one position per line, a FEN followed by the result of the game it came from, in any of
// the forms "FEN [1.0]", "FEN [0.5]", "FEN; 1-0", "FEN | 0.5" (White's point of view).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "arg_reader.h"
#include "core/position.h"
#include "eval/terms.h"
#include "eval/trace.h"
#include "eval/weight_values.h"
#include "eval/weights.h"

using namespace outpost;
using namespace outpost::eval;

namespace {

struct Options {
    std::vector<std::string> dataFiles;
    std::string output = "weight_values.h";
    int epochs = 400;
    double learningRate = 1.0;    // centipawns per step (Adam)
    double regularisation = 0.0;  // pull towards the starting weights, per weight per position
    double k = 0;                 // 0: fit it
    int threads = 2;
    std::size_t maxPositions = 0;     // 0: all
    std::vector<std::string> frozen;  // weight groups left as they are
    double holdout = 0.0;  // the last fraction of the positions (whole games) only measures
};

struct Coef {
    std::uint16_t index;
    float value;
};

struct Sample {
    std::uint32_t first;  // into the coefficient pool
    std::uint16_t count;
    std::uint8_t phase;
    std::uint8_t scale;
    float result;
};

struct Dataset {
    std::vector<Sample> samples;
    std::vector<Coef> coefs;
};

bool parseResult(const std::string& line, std::string& fen, float& result) {
    auto take = [&](std::size_t cut, const std::string& token) {
        fen = line.substr(0, cut);
        while (!fen.empty() && (fen.back() == ' ' || fen.back() == ';' || fen.back() == '|'))
            fen.pop_back();
        if (token.find("1-0") != std::string::npos)
            result = 1.0f;
        else if (token.find("0-1") != std::string::npos)
            result = 0.0f;
        else if (token.find("1/2") != std::string::npos)
            result = 0.5f;
        else {
            try {
                result = std::stof(token);
            } catch (...) {
                return false;
            }
        }
        return result >= 0.0f && result <= 1.0f;
    };
    if (auto open = line.rfind('['); open != std::string::npos) {
        const auto close = line.find(']', open);
        if (close == std::string::npos) return false;
        return take(open, line.substr(open + 1, close - open - 1));
    }
    const auto sep = line.find_first_of(";|");
    if (sep != std::string::npos) return take(sep, line.substr(sep + 1));
    return false;
}

Dataset load(const Options& opt) {
    Dataset data;
    std::size_t bad = 0;
    EvalTrace trace;
    for (const std::string& file : opt.dataFiles) {
        std::ifstream in(file);
        if (!in) {
            std::cerr << "cannot read " << file << "\n";
            std::exit(2);
        }
        std::string line, fen;
        float result = 0;
        while (std::getline(in, line)) {
            if (opt.maxPositions && data.samples.size() >= opt.maxPositions) break;
            if (line.empty()) continue;
            if (!parseResult(line, fen, result)) {
                ++bad;
                continue;
            }
            auto pos = Position::fromFen(fen);
            if (!pos) {
                ++bad;
                continue;
            }
            evaluateWithTrace(*pos, trace);
            if (trace.scale == kScaleDraw) continue;  // a known draw says nothing about weights
            Sample s{};
            s.first = static_cast<std::uint32_t>(data.coefs.size());
            for (std::size_t i = 0; i < kNumWeights; ++i)
                if (trace.coef[i] != 0.0)
                    data.coefs.push_back(
                        {static_cast<std::uint16_t>(i), static_cast<float>(trace.coef[i])});
            s.count = static_cast<std::uint16_t>(data.coefs.size() - s.first);
            s.phase = static_cast<std::uint8_t>(trace.phase);
            s.scale = static_cast<std::uint8_t>(trace.scale);
            s.result = result;
            data.samples.push_back(s);
        }
    }
    std::cerr << "loaded " << data.samples.size() << " positions (" << bad << " lines skipped), "
              << data.coefs.size() << " coefficients\n";
    return data;
}

struct Params {
    std::vector<double> mg, eg;
};

Params initialParams() {
    Params p;
    const S* w = weightArray();
    for (std::size_t i = 0; i < kNumWeights; ++i) {
        p.mg.push_back(w[i].mg);
        p.eg.push_back(w[i].eg);
    }
    return p;
}

double whiteScore(const Dataset& d, const Sample& s, const Params& p) {
    double mg = 0, eg = 0;
    for (std::uint32_t j = s.first; j < s.first + s.count; ++j) {
        mg += d.coefs[j].value * p.mg[d.coefs[j].index];
        eg += d.coefs[j].value * p.eg[d.coefs[j].index];
    }
    return blendPhases(mg, eg, s.phase, s.scale);  // known draws are not in the dataset
}

double sigmoid(double k, double score) {
    return 1.0 / (1.0 + std::pow(10.0, -k * score / 400.0));
}

// Runs body(begin, end, threadIndex) over the samples on opt.threads threads.
template <typename F>
void parallel(const Dataset& d, int threads, F body) {
    std::vector<std::thread> pool;
    const std::size_t n = d.samples.size();
    for (int t = 0; t < threads; ++t) {
        const std::size_t begin = n * t / threads, end = n * (t + 1) / threads;
        pool.emplace_back([=, &body] { body(begin, end, t); });
    }
    for (auto& th : pool) th.join();
}

double meanError(const Dataset& d, const Params& p, double k, int threads) {
    std::vector<double> partial(threads, 0.0);
    parallel(d, threads, [&](std::size_t b, std::size_t e, int t) {
        double sum = 0;
        for (std::size_t i = b; i < e; ++i) {
            const double diff = d.samples[i].result - sigmoid(k, whiteScore(d, d.samples[i], p));
            sum += diff * diff;
        }
        partial[t] = sum;
    });
    double total = 0;
    for (double x : partial) total += x;
    return total / static_cast<double>(d.samples.size());
}

double fitK(const Dataset& d, const Params& p, int threads) {
    // The error is smooth and unimodal in K: a golden-section search suffices.
    double lo = 0.1, hi = 3.0;
    const double ratio = (std::sqrt(5.0) - 1) / 2;
    for (int it = 0; it < 40; ++it) {
        const double a = hi - ratio * (hi - lo), b = lo + ratio * (hi - lo);
        if (meanError(d, p, a, threads) < meanError(d, p, b, threads))
            hi = b;
        else
            lo = a;
    }
    return (lo + hi) / 2;
}

void gradient(const Dataset& d, const Params& p, double k, int threads, std::vector<double>& gmg,
              std::vector<double>& geg) {
    std::vector<std::vector<double>> pmg(threads, std::vector<double>(kNumWeights, 0.0));
    std::vector<std::vector<double>> peg(threads, std::vector<double>(kNumWeights, 0.0));
    parallel(d, threads, [&](std::size_t b, std::size_t e, int t) {
        for (std::size_t i = b; i < e; ++i) {
            const Sample& s = d.samples[i];
            const double prob = sigmoid(k, whiteScore(d, s, p));
            // d(error)/d(score), constant factors dropped into the learning rate.
            const double g = (prob - s.result) * prob * (1 - prob);
            const double gm = g * s.phase / kPhaseMax;
            const double ge =
                g * (kPhaseMax - s.phase) * s.scale / (double(kScaleNormal) * kPhaseMax);
            for (std::uint32_t j = s.first; j < s.first + s.count; ++j) {
                pmg[t][d.coefs[j].index] += gm * d.coefs[j].value;
                peg[t][d.coefs[j].index] += ge * d.coefs[j].value;
            }
        }
    });
    gmg.assign(kNumWeights, 0.0);
    geg.assign(kNumWeights, 0.0);
    for (int t = 0; t < threads; ++t)
        for (std::size_t i = 0; i < kNumWeights; ++i) {
            gmg[i] += pmg[t][i];
            geg[i] += peg[t][i];
        }
    const double n = static_cast<double>(d.samples.size());
    for (std::size_t i = 0; i < kNumWeights; ++i) {
        gmg[i] /= n;
        geg[i] /= n;
    }
}

std::vector<bool> frozenMask(const Options& opt) {
    std::vector<bool> frozen(kNumWeights, false);
    for (const auto& g : kWeightGroups)
        for (const std::string& name : opt.frozen)
            if (name == g.name)
                for (std::size_t i = g.first; i < g.first + g.count; ++i) frozen[i] = true;
    // The king has no material value; it is not a weight to fit.
    frozen[offsetof(Weights, pieceValue) / sizeof(S) + kWKing] = true;
    return frozen;
}

void train(const Dataset& d, const Dataset& check, Params& p, double k, const Options& opt) {
    const Params start = p;
    const std::vector<bool> frozen = frozenMask(opt);
    std::vector<double> mMg(kNumWeights, 0), vMg(kNumWeights, 0), mEg(kNumWeights, 0),
        vEg(kNumWeights, 0), gmg, geg;
    const double beta1 = 0.9, beta2 = 0.999, eps = 1e-12;
    for (int epoch = 1; epoch <= opt.epochs; ++epoch) {
        gradient(d, p, k, opt.threads, gmg, geg);
        for (std::size_t i = 0; i < kNumWeights; ++i) {
            if (frozen[i]) continue;
            gmg[i] += opt.regularisation * (p.mg[i] - start.mg[i]);
            geg[i] += opt.regularisation * (p.eg[i] - start.eg[i]);
            mMg[i] = beta1 * mMg[i] + (1 - beta1) * gmg[i];
            vMg[i] = beta2 * vMg[i] + (1 - beta2) * gmg[i] * gmg[i];
            mEg[i] = beta1 * mEg[i] + (1 - beta1) * geg[i];
            vEg[i] = beta2 * vEg[i] + (1 - beta2) * geg[i] * geg[i];
            const double c1 = 1 - std::pow(beta1, epoch), c2 = 1 - std::pow(beta2, epoch);
            p.mg[i] -= opt.learningRate * (mMg[i] / c1) / (std::sqrt(vMg[i] / c2) + eps);
            p.eg[i] -= opt.learningRate * (mEg[i] / c1) / (std::sqrt(vEg[i] / c2) + eps);
        }
        if (epoch % 50 == 0 || epoch == opt.epochs) {
            std::cerr << "epoch " << epoch << " error " << meanError(d, p, k, opt.threads);
            if (!check.samples.empty())
                std::cerr << " held-out " << meanError(check, p, k, opt.threads);
            std::cerr << "\n";
        }
    }
}

void writeWeights(const Params& p, const std::string& path) {
    std::ostringstream out;
    out << "// The evaluation's weights (middlegame, endgame), in centipawns.\n"
           "//\n"
           "// Written by outpost-tuner (tools/tuner, see docs/eval.md); edit by hand if needed "
           "but "
           "keep the\n"
           "// layout (one member per block, in the order of weights.h).\n"
           "#pragma once\n\n"
           "#include \"eval/weights.h\"\n\n"
           "namespace outpost::eval {\n\n"
           "// clang-format off\n"
           "inline constexpr Weights kWeights{\n";
    auto weight = [&](std::size_t i) {
        return "S(" + std::to_string(std::lround(p.mg[i])) + ", " +
               std::to_string(std::lround(p.eg[i])) + "),";
    };
    for (const auto& g : kWeightGroups) {
        if (g.count == 1) {
            std::string w = weight(g.first);
            out << "    ." << g.name << " = " << w << "\n";
            continue;
        }
        out << "    ." << g.name << " = {\n";
        const std::size_t block = g.block ? g.block : g.count;
        const std::string indent = g.block ? "            " : "        ";
        for (std::size_t b = 0; b < g.count; b += block) {
            if (g.block) out << "        {\n";
            for (std::size_t i = 0; i < block; i += g.perLine) {
                out << indent;
                for (std::size_t j = i; j < std::min(i + g.perLine, block); ++j)
                    out << (j > i ? " " : "") << weight(g.first + b + j);
                out << "\n";
            }
            if (g.block) out << "        },\n";
        }
        out << "    },\n";
    }
    out << "};\n// clang-format on\n\n}  // namespace outpost::eval\n";
    std::ofstream file(path);
    file << out.str();
    std::cerr << "wrote " << path << "\n";
}

void usage() {
    std::cerr
        << "usage: outpost-tuner [options] DATA...\n"
           "  --out PATH        where to write the weights (default weight_values.h)\n"
           "  --epochs N        gradient steps (default 400)\n"
           "  --lr X            Adam step in centipawns (default 1.0)\n"
           "  --reg X           pull towards the starting weights (default 0)\n"
           "  --k X             sigmoid scale (default: fitted to the starting weights)\n"
           "  --threads N       (default 2)\n"
           "  --max N           use at most N positions\n"
           "  --freeze GROUP    keep a weight group (a member of Weights) fixed; repeatable\n"
           "  --holdout X       measure on the last fraction X of the positions, fit the rest\n"
           "  --print-only      write the current weights and exit (checks the writer)\n";
}

}  // namespace

int main(int argc, char** argv) {
    Options opt;
    bool printOnly = false;
    tools::ArgReader args(argc, argv, usage);
    while (!args.done()) {
        const std::string a = args.take();
        if (a == "--out")
            opt.output = args.value();
        else if (a == "--epochs")
            opt.epochs = std::stoi(args.value());
        else if (a == "--lr")
            opt.learningRate = std::stod(args.value());
        else if (a == "--reg")
            opt.regularisation = std::stod(args.value());
        else if (a == "--k")
            opt.k = std::stod(args.value());
        else if (a == "--threads")
            opt.threads = std::max(1, std::stoi(args.value()));
        else if (a == "--max")
            opt.maxPositions = std::stoull(args.value());
        else if (a == "--freeze")
            opt.frozen.push_back(args.value());
        else if (a == "--holdout")
            opt.holdout = std::clamp(std::stod(args.value()), 0.0, 0.9);
        else if (a == "--print-only")
            printOnly = true;
        else if (a == "--help" || a == "-h") {
            usage();
            return 0;
        } else if (!a.empty() && a[0] == '-') {
            usage();
            return 2;
        } else
            opt.dataFiles.push_back(a);
    }
    Params params = initialParams();
    if (printOnly) {
        writeWeights(params, opt.output);
        return 0;
    }
    if (opt.dataFiles.empty()) {
        usage();
        return 2;
    }
    const auto started = std::chrono::steady_clock::now();
    Dataset data = load(opt);
    if (data.samples.empty()) return 1;
    // Held-out positions come from the end of the input: the data is written game by game, so
    // they are (apart from one boundary game) positions of games the fit never saw.
    Dataset check;
    const auto held = static_cast<std::size_t>(opt.holdout * data.samples.size());
    if (held > 0) {
        check.coefs = data.coefs;
        check.samples.assign(data.samples.end() - held, data.samples.end());
        data.samples.resize(data.samples.size() - held);
    }
    const double k = opt.k > 0 ? opt.k : fitK(data, params, opt.threads);
    std::cerr << "K = " << k << ", starting error " << meanError(data, params, k, opt.threads);
    if (!check.samples.empty())
        std::cerr << " held-out " << meanError(check, params, k, opt.threads);
    std::cerr << "\n";
    train(data, check, params, k, opt);
    writeWeights(params, opt.output);
    const double secs =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::cerr << "done in " << secs << " s\n";
    return 0;
}
