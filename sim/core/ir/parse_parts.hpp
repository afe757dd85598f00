// The parser's parts, each reading one construct from a TokenStream. Internal to the parser.
// Contract: each returns nothing after reporting an error; the caller decides how to recover.
#pragma once

#include <optional>

#include "sim/core/ir/module.hpp"
#include "sim/core/ir/token_stream.hpp"

namespace warpsim::ir {

// [dests '='] opcode operands, up to (not including) the end of the line.
std::optional<Instruction> parse_instruction(TokenStream& ts);

// `launch KERNEL [as NAME] attrs { args }`, the `launch` word already consumed.
std::optional<Launch> parse_launch(TokenStream& ts, SourceLoc loc);

// A scalar type word (s32, f32, ...), reported as an error when it is not one.
std::optional<ScalarType> parse_type_word(TokenStream& ts);

}  // namespace warpsim::ir
