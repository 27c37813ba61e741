# memsim: every target installs what it needs into .venv first.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
LOCALE ?= en
SCHEMA ?= schemas/daily_life.$(LOCALE).yaml
SEED   ?= 0
PROFILES ?= 4500
NAME   := $(basename $(notdir $(SCHEMA)))
OUT    ?= data/$(NAME)

.DEFAULT_GOAL := help
.PHONY: help install dataset audit audit-memdaily profiles test lint typecheck bench-profiles bench-audit bench bench-speed render clean compare-memdaily

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-16s %s\n", $$1, $$2}'
	@echo "  variables: LOCALE=$(LOCALE) SCHEMA=$(SCHEMA) SEED=$(SEED) PROFILES=$(PROFILES) PER_TYPE=$(PER_TYPE) OUT=$(OUT)"

$(BIN)/.installed: pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $@

# memsim's bytecode, refreshed for the modules changed since (a no-op otherwise, ~0.04 s
# CPU): with PYTHONDONTWRITEBYTECODE set, nothing writes it, and every memsim process
# compiled all its modules from source (~0.3 s CPU each; four per make dataset). Only a
# speed-up: a tree it cannot write to runs as before
install: $(BIN)/.installed ## Create .venv and install memsim with its dev extras
	@$(BIN)/python -m compileall -q memsim > /dev/null 2>&1 || true

PER_TYPE ?= 500
WORKERS ?= 2

dataset: profiles ## Build the dataset of LOCALE (en, zh) or SCHEMA into data/<schema>/ and audit it (fails on an error)
	$(BIN)/memsim generate --schema $(SCHEMA) --profiles $(OUT)/profiles --out $(OUT)/dataset \
		--seed $(SEED) --per-type $(PER_TYPE) --workers $(WORKERS)
	$(MAKE) --no-print-directory audit

audit: install ## Audit $(OUT)/dataset against its profiles and SCHEMA into $(OUT)/audit
	$(BIN)/memsim audit $(OUT)/dataset --profiles $(OUT)/profiles --schema $(SCHEMA) \
		--report $(OUT)/audit --no-progress --workers $(WORKERS)

MEMDAILY ?= ../shared/memdaily

audit-memdaily: install ## Audit the real MemDaily (MEMDAILY=folder) into data/memdaily_audit
	$(BIN)/memsim audit --format memdaily $(MEMDAILY) --allow-skip --report data/memdaily_audit --no-progress || test $$? -eq 1

bench-audit: install ## Audit seconds per 1,000 questions at MemDaily scale and 10x, and on MemDaily
	$(BIN)/python benchmarks/audit.py

profiles: install ## Sample PROFILES profiles from SCHEMA into $(OUT)/profiles
	$(BIN)/memsim schema validate $(SCHEMA)
	$(BIN)/memsim profiles --schema $(SCHEMA) --n $(PROFILES) --seed $(SEED) --out $(OUT)/profiles

test: install ## Run the test suite
	$(BIN)/python -m pytest -q -n 2

lint: install ## ruff
	$(BIN)/ruff check memsim tests benchmarks

typecheck: install ## mypy --strict on the package
	$(BIN)/mypy memsim

bench-profiles: install ## Profiles/s and peak memory at 1k/10k/100k, against pgmpy's sampler
	$(BIN)/python benchmarks/sample_profiles.py

BENCH_OUT ?= $(OUT)/bench

bench: install ## Benchmark every installed offline memory mechanism (lexical reader) on $(OUT)/dataset
	@test -f $(OUT)/dataset/dataset.jsonl || { echo "no dataset in $(OUT)/dataset: run make dataset first"; exit 2; }
	$(BIN)/memsim bench $(OUT)/dataset --reader lexical --noise 1,10,50,100 --seed $(SEED) \
		--workers $(WORKERS) --out $(BENCH_OUT)

bench-speed: install ## Bench wall time and recall@5 at MemDaily scale (benchmarks/bench.py)
	$(BIN)/python benchmarks/bench.py

.PHONY: bench-llm
bench-llm: install ## LLM path: req/s at concurrency 1..64 vs ideal, calls per question (fake server)
	$(BIN)/python benchmarks/llm_throughput.py


compare-memdaily: install ## Print this dataset's data card beside MemDaily's (e.g. LOCALE=zh; run make dataset first)
	$(BIN)/python benchmarks/data_cards.py --ours $(OUT)/dataset/memdaily.json --memdaily $(MEMDAILY)

render: install ## Draw the default schema's network to data/<schema>/network.svg
	$(BIN)/memsim graph render --schema $(SCHEMA) --out $(OUT)/network.svg

clean: ## Remove generated data and caches (keeps .venv)
	rm -rf data .pytest_cache .mypy_cache .ruff_cache .hypothesis
