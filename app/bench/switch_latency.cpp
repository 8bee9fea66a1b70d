#include "app/bench/switch_latency.h"

#include <algorithm>
#include <chrono>
#include <functional>
#include <set>

#include "app/bench/bench_runner.h"
#include "core/scene/enum_names.h"
#include "core/session/sim_session.h"

namespace tetlab {

Result<std::vector<SwitchTiming>> measureSwitchLatency(const std::string& sceneName, const ClContext& ctx) {
  Result<LoadedSceneFile> loaded = loadBenchSceneFile(sceneName);
  if (!loaded) return loaded.error();
  Result<std::unique_ptr<SimSession>> made = SimSession::create(std::move(loaded->desc), std::move(loaded->built));
  if (!made) return made.error();
  SimSession& session = **made;
  session.advance(2);  // the CPU reference warm, as after loading a scene

  std::vector<SwitchTiming> out;
  std::set<std::string> used;  // (backend, solver) pairs that ran before
  const auto timed = [&](const std::string& action, const std::function<Status()>& change) {
    SwitchTiming t;
    t.action = action;
    const auto t0 = std::chrono::steady_clock::now();
    Status st = change();
    if (st) {
      session.advance(1);
      st = session.syncPositions();  // the window's per-frame read-back without GL sharing
    }
    t.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    const std::string key = std::string(backendName(session.backend())) + "/" + solverName(session.solver());
    t.firstUse = used.insert(key).second;
    if (!st) t.error = st.error().message;
    else if (session.blownUp()) t.error = session.blowUpMessage();
    out.push_back(std::move(t));
  };
  const SolverKind first = session.solver();
  std::vector<SolverKind> cycle;
  for (SolverKind k : {SolverKind::Pbd, SolverKind::Xpbd, SolverKind::Vbd, SolverKind::Avbd})
    if (k != first) cycle.push_back(k);
  cycle.push_back(first);
  used.insert(std::string("cpu/") + solverName(first));
  for (int round = 0; round < 2; ++round) {
    timed("backend opencl", [&] { return session.setBackend(Backend::OpenCl, &ctx); });
    for (SolverKind k : cycle)
      timed(std::string("solver ") + solverName(k), [&] {
        session.setSolver(k);
        return Status(Ok{});
      });
    timed("backend cpu", [&] { return session.setBackend(Backend::Cpu, nullptr); });
  }
  return out;
}

double worstReuseMs(const std::vector<SwitchTiming>& timings) {
  double worst = 0.0;
  for (const SwitchTiming& t : timings)
    if (!t.firstUse && t.error.empty()) worst = std::max(worst, t.ms);
  return worst;
}

}  // namespace tetlab
