#include "sim/sass/sass_mbarrier.hpp"

#include <fmt/format.h>

#include <bit>
#include <cstring>

#include "sim/sass/sass_lanes.hpp"
#include "sim/sass/sass_memory_access.hpp"

namespace warpsim::sass {
namespace {

// Modifiers::sub of SYNCS: what it does (bits 0-1), the arrivals it makes (bits 2-3), what it
// does to the transaction count (bits 4-5), and the .OPTOUT and .TRYWAIT flags.
enum class SyncsKind : std::uint8_t { Exchange, Arrive, PhaseCheck, Invalidate };
enum class Arrivals : std::uint8_t { None, One, ByRegister };
enum class Transactions : std::uint8_t { None, AddOne, AddRegister, SubtractRegister };
constexpr std::uint8_t kOptOut = 0x40;   // arrive_drop: one arrival fewer in later phases too
constexpr std::uint8_t kTryWait = 0x80;  // try_wait: suspends until the phase completes
// ARRIVES.LDGSTSBAR.64: .TRANSCNT takes one transaction off (cp.async.mbarrier.arrive, whose
// SYNCS ...A0T1 added it), .ARVCNT is one arrival (its .noinc form).
constexpr std::uint8_t kArrivesTransaction = 1;

SyncsKind kind_of(std::uint8_t sub) {
  return static_cast<SyncsKind>(sub & 3u);
}
Arrivals arrivals_of(std::uint8_t sub) {
  return static_cast<Arrivals>((sub >> 2) & 3u);
}
Transactions transactions_of(std::uint8_t sub) {
  return static_cast<Transactions>((sub >> 4) & 3u);
}
std::uint8_t with_counts(std::uint8_t sub, Arrivals a, Transactions t) {
  return static_cast<std::uint8_t>((sub & ~0x3cu) | static_cast<unsigned>(a) << 2 |
                                   static_cast<unsigned>(t) << 4);
}

constexpr unsigned kCountBits = 20;
constexpr std::uint64_t kCountLimit = std::uint64_t{1} << kCountBits;  // 2^20
constexpr std::uint64_t kCountMask = kCountLimit - 1;
constexpr unsigned kPendingShift = 43;
constexpr unsigned kExpectedShift = 1;
constexpr unsigned kTransactionShift = 21;
constexpr unsigned kTransactionBits = 21;
constexpr std::uint64_t kTransactionMask = (std::uint64_t{1} << kTransactionBits) - 1;
constexpr unsigned kPhaseShift = 63;

struct Mbarrier {
  std::uint64_t pending = 0;
  std::uint64_t expected = 0;
  std::int64_t transactions = 0;
  unsigned phase = 0;
};

Mbarrier unpack(std::uint64_t word) {
  Mbarrier m;
  m.pending = kCountLimit - ((word >> kPendingShift) & kCountMask);
  m.expected = kCountLimit - ((word >> kExpectedShift) & kCountMask);
  // The field holds the pending transactions negated (expect_tx counts it down from 0).
  const std::uint64_t t = (word >> kTransactionShift) & kTransactionMask;
  m.transactions =
      -(static_cast<std::int64_t>(t) -
        (((t >> (kTransactionBits - 1)) & 1u) != 0 ? std::int64_t{1} << kTransactionBits : 0));
  m.phase = static_cast<unsigned>(word >> kPhaseShift);
  return m;
}

std::uint64_t pack(const Mbarrier& m) {
  return ((kCountLimit - m.pending) & kCountMask) << kPendingShift |
         ((kCountLimit - m.expected) & kCountMask) << kExpectedShift |
         (static_cast<std::uint64_t>(-m.transactions) & kTransactionMask) << kTransactionShift |
         std::uint64_t{m.phase} << kPhaseShift;
}

std::uint64_t load_word(const std::uint8_t* at) {
  std::uint64_t v = 0;
  std::memcpy(&v, at, sizeof v);
  return v;
}
void store_word(std::uint8_t* at, std::uint64_t v) {
  std::memcpy(at, &v, sizeof v);
}

// The object each executing lane names: its shared-memory address (by cluster address where
// the block is in a cluster of several), 8 bytes, aligned.
Access locate_objects(const Lanes& x, const Operand& m) {
  Access acc;
  acc.space = Space::Shared;
  acc.cluster = x.block.peers.size() > 1;
  acc.bytes = 8;
  locate(x, m, acc);
  return acc;
}

// One lane's arrivals and transaction change on the object at `at`; returns the word before.
std::uint64_t arrive(const Lanes& x, unsigned lane, std::uint8_t* at, std::uint64_t arrivals,
                     std::int64_t transactions, bool opt_out) {
  const std::uint64_t before = load_word(at);
  Mbarrier m = unpack(before);
  if (arrivals > m.pending)
    x.fault(lane, fmt::format("{} arrivals at an mbarrier whose phase waits for {} (an "
                              "arrival the barrier's count did not provide for)",
                              arrivals, m.pending));
  m.pending -= arrivals;
  if (opt_out) {
    if (m.expected == 0) x.fault(lane, "arrive_drop at an mbarrier that expects no arrival");
    --m.expected;
  }
  m.transactions += transactions;
  if (m.pending == 0 && m.transactions == 0) {
    m.phase ^= 1u;
    m.pending = m.expected;
    x.block.mbarrier_completed = true;
  }
  store_word(at, pack(m));
  return before;
}

void execute_syncs(const Lanes& x) {
  const std::uint8_t sub = x.inst.mods.sub;
  const SyncsKind kind = kind_of(sub);
  if (kind == SyncsKind::Invalidate) return;  // mbarrier.inval: the memory is ordinary again
  const Access objects = locate_objects(x, x.op(1));
  if (kind == SyncsKind::Exchange) {  // mbarrier.init: ptxas computed the whole word
    x.each([&](unsigned lane) {
      const std::uint64_t before = load_word(objects.data[lane]);
      store_word(objects.data[lane], x.raw64(x.op(2), lane));
      x.set64(x.op(0), lane, before);
    });
    return;
  }
  if (kind == SyncsKind::Arrive) {
    x.each([&](unsigned lane) {
      const std::uint32_t value = x.raw(x.op(2), lane);
      const Arrivals a = arrivals_of(sub);
      const std::uint64_t arrivals = a == Arrivals::ByRegister ? value : a == Arrivals::One ? 1 : 0;
      std::int64_t transactions = 0;
      switch (transactions_of(sub)) {
        case Transactions::None:
          break;
        case Transactions::AddOne:
          transactions = 1;
          break;
        case Transactions::AddRegister:
          transactions = value;
          break;
        case Transactions::SubtractRegister:
          transactions = -std::int64_t{value};
          break;
      }
      const std::uint64_t before =
          arrive(x, lane, objects.data[lane], arrivals, transactions, (sub & kOptOut) != 0);
      // The token: the object's high word before the arrival (its phase, pending count and the
      // top of its transaction field), and the instruction's count or transaction operand in the
      // low word, 0 for a plain arrival (an H100's tokens, results/h100_2026_12_06d/).
      x.set64(x.op(0), lane, (before & 0xffffffff00000000ull) | value);
    });
    return;
  }
  // PHASECHK: complete where the phase's parity is no longer the one the register's bit 31
  // holds (a token's high word, or try_wait.parity's parity << 31).
  x.each([&](unsigned lane) {
    const unsigned waited = x.raw(x.op(2), lane) >> 31;
    const bool complete = unpack(load_word(objects.data[lane])).phase != waited;
    x.set_pred(x.op(0), lane, complete || (sub & kTryWait) != 0);
    if (complete) return;
    if ((sub & kTryWait) != 0) {
      x.w.mbarrier_waiting |= 1u << lane;
      x.w.mbarrier_object[lane] = objects.data[lane];
      x.w.mbarrier_parity = (x.w.mbarrier_parity & ~(1u << lane)) | waited << lane;
    } else {
      x.w.polling = true;
    }
  });
}

// The copies were done at once (LDGSTS), so their arrival is made here.
void execute_arrives(const Lanes& x) {
  const Access objects = locate_objects(x, x.op(0));
  const bool transaction = (x.inst.mods.sub & kArrivesTransaction) != 0;
  x.each([&](unsigned lane) {
    arrive(x, lane, objects.data[lane], transaction ? 0 : 1, transaction ? -1 : 0, false);
  });
}

}  // namespace

bool apply_mbarrier_modifier(Op op, std::string_view mod, Modifiers& m) {
  if (op == Op::NANOSLEEP) return mod == "SYNCS";  // the back-off of a try_wait with a hint
  if (op == Op::ARRIVES) {
    if (mod == "TRANSCNT") m.sub = kArrivesTransaction;
    return mod == "LDGSTSBAR" || mod == "64" || mod == "TRANSCNT" || mod == "ARVCNT";
  }
  auto set_kind = [&](SyncsKind k) {
    m.sub = static_cast<std::uint8_t>((m.sub & ~3u) | static_cast<unsigned>(k));
    return true;
  };
  if (mod == "EXCH") return set_kind(SyncsKind::Exchange);
  if (mod == "ARRIVE") {  // alone (arrive.expect_tx): one arrival, and the register's transactions
    m.sub = with_counts(m.sub, Arrivals::One, Transactions::AddRegister);
    return set_kind(SyncsKind::Arrive);
  }
  if (mod == "PHASECHK") return set_kind(SyncsKind::PhaseCheck);
  if (mod == "CCTL") return set_kind(SyncsKind::Invalidate);
  if (mod == "IV" || mod == "64" || mod == "TRANS64" || mod == "RED") return true;
  if (mod == "OPTOUT") return (m.sub |= kOptOut), true;
  if (mod == "TRYWAIT") return (m.sub |= kTryWait), true;
  // The arrivals (A0, A1, AR: none, one, the register's) and transactions (T0, T1, TR, TX:
  // none, one more, the register's more, the register's fewer).
  if (mod.size() != 4 || mod[0] != 'A' || mod[2] != 'T') return false;
  const char a = mod[1], t = mod[3];
  if ((a != '0' && a != '1' && a != 'R') || (t != '0' && t != '1' && t != 'R' && t != 'X'))
    return false;
  if (a == 'R' && t != '0') return false;  // one register cannot give both
  m.sub = with_counts(m.sub,
                      a == '0'   ? Arrivals::None
                      : a == '1' ? Arrivals::One
                                 : Arrivals::ByRegister,
                      t == '0'   ? Transactions::None
                      : t == '1' ? Transactions::AddOne
                      : t == 'R' ? Transactions::AddRegister
                                 : Transactions::SubtractRegister);
  return true;
}

void execute_mbarrier(const Lanes& x) {
  if (x.inst.op == Op::ARRIVES) return execute_arrives(x);
  execute_syncs(x);
}

bool release_mbarrier_waits(SassBlock& block) {
  if (!block.mbarrier_completed) return false;
  block.mbarrier_completed = false;
  bool released = false;
  for (SassWarp& w : block.warps) {
    for (std::uint32_t m = w.mbarrier_waiting; m != 0; m &= m - 1) {
      const auto lane = static_cast<unsigned>(std::countr_zero(m));
      const unsigned waited = (w.mbarrier_parity >> lane) & 1u;
      if (unpack(load_word(w.mbarrier_object[lane])).phase == waited) continue;
      w.mbarrier_waiting &= ~(1u << lane);
      released = true;
    }
  }
  return released;
}

}  // namespace warpsim::sass
