#include "tsunagi/model/lmmc/types.hpp"

namespace tsunagi::lmmc {

std::string to_string(Refusal refusal) {
  switch (refusal) {
    case Refusal::NotStarted:
      return "the link end is not initialised";
    case Refusal::NotMapped:
      return "no virtual link page there";
    case Refusal::Empty:
      return "zero bytes";
    case Refusal::TooLarge:
      return "more than one page";
    case Refusal::FrameFull:
      return "the port's frame is full (retry after the reader reads)";
  }
  return "?";
}

}  // namespace tsunagi::lmmc
