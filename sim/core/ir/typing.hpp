// The type an instruction writes into its destinations, by the opcode table's result rule.
#pragma once

#include "sim/core/ir/module.hpp"

namespace warpsim::ir {

inline ScalarType result_type(const Instruction& inst) {
  switch (opcode_info(inst.opcode).result) {
    case ResultRule::Pred:
      return ScalarType::Pred;
    case ResultRule::Mask:
      return ScalarType::U32;
    case ResultRule::VoteMode:
      return inst.vote_mode == VoteMode::Ballot || inst.vote_mode == VoteMode::Popc
                 ? ScalarType::U32
                 : ScalarType::Pred;
    default:
      return inst.type;
  }
}

}  // namespace warpsim::ir
