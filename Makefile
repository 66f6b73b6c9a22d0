# ssg: build, test, install. `make site` and `make test` are the two set-up
# commands of the README; both install missing Debian packages first.

PREFIX  ?= /usr/local
DESTDIR ?=
BUILD   ?= build
CC      ?= cc
PKGS     = libcmark-gfm yaml-0.1
CFLAGS  ?= -O2 -g
WARN     = -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wno-unused-parameter
CPPFLAGS_SSG = -D_GNU_SOURCE -Isrc -I$(BUILD)
# libcurl and libmicrohttpd are opened when first needed (src/lazy_*.c)
LDLIBS_SSG = -lcmark-gfm-extensions -lcmark-gfm -lyaml -lpthread -ldl
# ssg itself links the static cmark-gfm and libyaml that Debian's -dev packages
# ship: its many calls into the parser's tree skip the PLT, and the loader
# binds less (a clean build at 10,000 documents: 0.964 of the CPU time and of
# the wall time, BENCHMARKS.md). The test programs link the shared ones.
LDLIBS_BIN = -Wl,-Bstatic -lcmark-gfm-extensions -lcmark-gfm -lyaml -Wl,-Bdynamic -lpthread -ldl

SRCS    := $(sort $(wildcard src/*.c))
LIBSRCS := $(filter-out src/main.c,$(SRCS))
OBJS    := $(LIBSRCS:src/%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/theme_embed.o
THEME   := $(shell find themes/default -type f 2>/dev/null | LC_ALL=C sort)
TESTS   := $(sort $(wildcard tests/unit/test_*.c))
TESTBINS:= $(TESTS:tests/unit/%.c=$(BUILD)/tests/%)

# Debian packages the build and the tests need (pkg-config name -> package).
DEB_BUILD = libcmark-gfm-dev libcmark-gfm-extensions-dev libyaml-dev libmicrohttpd-dev libcurl4-openssl-dev pkg-config
DEB_TEST  = libcmocka-dev python3-docutils python3-jsonschema tidy valgrind strace time git chromium nginx-light nodejs $(if $(shell command -v npm 2>/dev/null),,npm)

.PHONY: all site test check-unit test-asan deps deps-test install uninstall clean bench fuzz fuzz-build

all: ssg

ssg: $(BUILD)/obj/main.o $(BUILD)/libssg.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS_BIN)

$(BUILD)/libssg.a: $(OBJS)
	@rm -f $@
	ar rcs $@ $^

$(BUILD)/obj/%.o: src/%.c $(wildcard src/*.h) | $(BUILD)/obj
	$(CC) $(WARN) $(CPPFLAGS_SSG) $(CFLAGS) -c -o $@ $<

# The default theme is compiled into the binary so ssg works alone.
$(BUILD)/embed: scripts/embed.c | $(BUILD)/obj
	$(CC) $(WARN) -O1 -o $@ $<

$(BUILD)/theme_embed.c: $(BUILD)/embed $(THEME)
	$(BUILD)/embed themes/default $(THEME) > $@.tmp && mv $@.tmp $@

$(BUILD)/obj/theme_embed.o: $(BUILD)/theme_embed.c
	$(CC) -std=c11 -Isrc $(CFLAGS) -c -o $@ $<

$(BUILD)/obj $(BUILD)/tests:
	mkdir -p $@

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libssg.a tests/unit/testutil.h | $(BUILD)/tests
	$(CC) $(WARN) $(CPPFLAGS_SSG) -Itests/unit $(CFLAGS) -o $@ $< $(BUILD)/libssg.a \
		$(LDLIBS_SSG) -lcmocka

# ---- dependencies --------------------------------------------------------
deps:
	@sh scripts/deps.sh $(DEB_BUILD)

deps-test:
	@sh scripts/deps.sh $(DEB_BUILD) $(DEB_TEST)

# ---- the two set-up commands ---------------------------------------------
site: deps
	@$(MAKE) --no-print-directory ssg
	./ssg build
	@echo
	@echo "The portal is in $(CURDIR)/public/ (open public/index.html)."
	@echo "Preview it with live reload: ./ssg serve   (then open the URL it prints)"

# The test builds compile on every processor, unless make was given -j itself
# (a fresh clone's `make test`: 8.6 min on one, on the benchmark machine).
PAR = $(if $(filter -j%,$(MAKEFLAGS)),,-j$(shell nproc))

test: deps-test
	@$(MAKE) --no-print-directory $(PAR) ssg check-unit
	@$(MAKE) --no-print-directory $(PAR) test-asan
	@sh tests/run_integration.sh ./ssg

check-unit: $(TESTBINS)
	@sh tests/run_unit.sh $(TESTBINS)

# The same suite under AddressSanitizer + UndefinedBehaviorSanitizer (and LeakSanitizer).
test-asan:
	@$(MAKE) --no-print-directory BUILD=build/asan \
		CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
		LDFLAGS="-fsanitize=address,undefined" build/asan/ssg-asan check-unit
	@# the incremental paths (kept pages, records and bodies, the spare, patches,
	@# the search index's kept words)
	@# under the sanitizers too (not the scripts that run ssg under strace)
	@for t in page_inputs spare_tree patch_edit descs_edit descs_splice list_items search_memo; do \
		SSG=$(CURDIR)/build/asan/ssg-asan sh tests/integration/$$t.sh || exit 1; done

$(BUILD)/ssg-asan: $(BUILD)/obj/main.o $(BUILD)/libssg.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS_SSG)

# The benchmark against Hugo and the cmark-gfm floor (figures: BENCHMARKS.md).
bench: deps
	@$(MAKE) --no-print-directory ssg
	bash scripts/bench.sh

install: ssg
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 ssg $(DESTDIR)$(PREFIX)/bin/ssg
	install -m 644 man/ssg.1 $(DESTDIR)$(PREFIX)/share/man/man1/ssg.1

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/ssg $(DESTDIR)$(PREFIX)/share/man/man1/ssg.1

clean:
	rm -rf build ssg public

# Test tools (small programs the integration tests drive), e.g. the RST tree dumper.
TOOLS   := $(patsubst tests/tools/%.c,$(BUILD)/tools/%,$(wildcard tests/tools/*.c))
tools: $(TOOLS)
$(BUILD)/tools/%: tests/tools/%.c $(BUILD)/libssg.a
	@mkdir -p $(BUILD)/tools
	$(CC) $(WARN) $(CPPFLAGS_SSG) $(CFLAGS) -o $@ $< $(BUILD)/libssg.a $(LDLIBS_SSG)

# ---- fuzzing (not part of `make test`) --------------------------------------
# libFuzzer targets tests/fuzz/fuzz_<t>.c, built with clang against the library
# compiled with ASan+UBSan coverage. `make fuzz FUZZ_SECONDS=N` runs each
# target in FUZZ_TARGETS for N seconds, seeded from tests/fuzz/corpus/<t>
# (new inputs go to build/fuzz/corpus/<t>, crashes to build/fuzz/artifacts/).
# Needs Debian clang and libclang-rt-14-dev (apt-get install clang libclang-rt-14-dev).
FUZZ_SECONDS ?= 60
FUZZ_TARGETS ?= rst config mustache url utf8 sanitize doc
FUZZ_FLAGS   ?= -rss_limit_mb=2048 -timeout=10
FUZZ_SAN      = -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
# Lower render limits, so that a template bomb stops well inside -timeout.
FUZZ_DEFS     = -DMUSTACHE_MAX_STEPS=2000000ULL "-DMUSTACHE_MAX_OUTPUT=((size_t)16<<20)"
FUZZ_BINS    := $(FUZZ_TARGETS:%=build/fuzz/fuzz_%)

fuzz-build:
	@$(MAKE) --no-print-directory BUILD=build/fuzz CC=clang \
		CFLAGS='-O1 -g -fsanitize=fuzzer-no-link $(FUZZ_SAN) $(FUZZ_DEFS)' build/fuzz/libssg.a
	@$(MAKE) --no-print-directory $(FUZZ_BINS)

build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c build/fuzz/libssg.a
	clang $(WARN) $(CPPFLAGS_SSG) -O1 -g -fsanitize=fuzzer $(FUZZ_SAN) $(FUZZ_DEFS) -o $@ $< \
		build/fuzz/libssg.a $(LDLIBS_SSG)

fuzz: fuzz-build
	@for t in $(FUZZ_TARGETS); do \
		mkdir -p build/fuzz/corpus/$$t build/fuzz/artifacts tests/fuzz/corpus/$$t; \
		echo "== fuzz_$$t for $(FUZZ_SECONDS) s"; \
		build/fuzz/fuzz_$$t $(FUZZ_FLAGS) -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 \
			-artifact_prefix=build/fuzz/artifacts/$$t- \
			build/fuzz/corpus/$$t tests/fuzz/corpus/$$t || exit 1; \
	done
