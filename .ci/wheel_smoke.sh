#!/usr/bin/env bash
# The suite as a user installs it: build the sdist and the wheel (the wheel from the sdist, so
# both must hold everything), install the wheel (not editable) with the tools and train extras
# into a fresh virtual environment, and use it from a folder outside the clone, where the
# clone's sources cannot be imported: a small default tournament whose leaderboard includes
# the shipped policy (as champion-net), a replay of a record it saved, and one env episode of
# every game.
#
# Usage: .ci/wheel_smoke.sh [DIST_DIR [VENV_DIR]]  (default .ci/dist and .ci/wheel-venv).
# `python` must have `build` (the dev extra); PYTHON names the interpreter of the new venv.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
dist="$(realpath -m "${1:-$root/.ci/dist}")"
venv="$(realpath -m "${2:-$root/.ci/wheel-venv}")"
start=$SECONDS

rm -rf "$dist" "$venv"
python -m build --outdir "$dist" "$root"
sdist=$(echo "$dist"/*.tar.gz)
wheel=$(echo "$dist"/*.whl)
for model in $(ls "$root/agents/models" | grep -E '\.(zip|npz)$'); do  # every shipped model
    tar -tzf "$sdist" | grep "/agents/models/$model\$" >/dev/null || {
        echo "wheel smoke: the sdist lacks the shipped model $model" >&2
        exit 1
    }
done
echo "wheel smoke: $(basename "$wheel") $(du -k "$wheel" | cut -f1) kB"

"${PYTHON:-python3.11}" -m venv "$venv"
"$venv/bin/pip" install --quiet "$wheel[tools,train]"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
export PATH="$venv/bin:$PATH"

koira --version
python - "$root" <<'PY'
import sys
from pathlib import Path

import koira_agents.net
import koira_agents.ppo

models = koira_agents.ppo.MODELS
source = Path(sys.argv[1]) / "agents"  # the clone's own package: must not be the one imported
assert not models.is_relative_to(source) and "site-packages" in models.parts, models
assert koira_agents.ppo.model_path("koira4-ppo").is_file()
shipped = sorted(p.name for p in (source / "models").iterdir() if p.suffix in (".zip", ".npz"))
for name in shipped:  # every game's champion-net too
    assert (models / name).is_file(), f"the wheel lacks the shipped model {name}"
    if name.endswith(".npz"):
        koira_agents.net.NetPolicy.load(koira_agents.net.net_path(name.removesuffix(".npz")))
print(f"wheel smoke: {len(shipped)} shipped models in {models}")
PY

koira tournament --games 20 --out tournament --save-records 1 --workers 2 --quiet | tee board.txt
grep -qw champion-net board.txt || {
    echo "wheel smoke: the shipped policy 'champion-net' is missing from the leaderboard" >&2
    exit 1
}
record=$(find tournament/records -name '*.json' -print -quit)
koira replay "$record" | tail -n 3

python - <<'PY'
import random

import numpy as np

import koira_env

for game in koira_env.games():
    env = koira_env.make(game)
    env.reset(seed=0)
    rng = random.Random(0)
    moves = 0
    for _ in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        done = terminated or truncated
        env.step(None if done else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        moves += not done
    print(f"wheel smoke: one {game} episode, {moves} moves")
PY
echo "wheel smoke: passed in $((SECONDS - start)) s"
