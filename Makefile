# Damier: `make demo` and `make test` work on a fresh clone with Python 3.11 and make.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: demo test test-slow test-browser serve lint bench venv clean

venv: $(STAMP)

$(STAMP): requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $(STAMP)

demo: $(STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo
	$(PY) manage.py runserver $(HOST):$(PORT)

# The whole suite except the deep perft depths and the browser tests, which CI adds, in a random order
# (pytest-randomly); the last lines print the seed. `make test SEED=N` runs that order again; with
# `make test SEED=N WORKERS=0` in one process, so that no worker's timing changes which tests meet.
WORKERS ?= 2
RANDOM_ORDER = $(if $(SEED),-p randomly --randomly-seed=$(SEED))
test: $(STAMP)
	$(PY) -m pytest -q -n $(WORKERS) $(RANDOM_ORDER) -m "not slow and not browser"

test-slow: $(STAMP)
	$(PY) -m pytest -q -n 2 -m "slow" || [ $$? -eq 5 ]

# Two workers, a file to each (tests/browser/test_accessibility.py checks its whole matrix in one process),
# in the files' own order: a browser test walks a screen step by step, as an arbiter would.
test-browser: $(STAMP)
	$(PY) -m pytest -q -n 2 --dist loadfile -p no:randomly -m "browser" || [ $$? -eq 5 ]

serve: $(STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput
	$(VENV)/bin/gunicorn -c config/gunicorn.py config.wsgi --bind $(HOST):$(PORT)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy --strict rules

bench: $(STAMP)
	@for b in bench/*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
