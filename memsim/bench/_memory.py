"""Memory mechanisms: each observes a trajectory's messages one by one (a write), then
answers one retrieval request (a read) with the messages the reader will see.

Every mechanism is registered in the ``memory`` registry under its short name and
built as ``MEMORY.get(name)(k=k)``. One instance serves a whole run: :meth:`reset`
starts each trajectory, so a mechanism may keep caches across trajectories (the
embedding mechanism keeps its vectors) but never memories.

``retrieve`` returns messages best first. Mechanisms with ``ranks = False`` pass
everything they hold (there is no top-k to score, so recall@k and NDCG@k are not
defined for them; the share of evidence the reader sees still is).

Only the two controls read the labels given to :meth:`reset`: ``oracle`` (exactly the
evidence messages) and ``noise_only`` (exactly the infused noise messages).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from memsim._registry import Registry, registry
from memsim.bench._types import Labels, Message, Query

DEFAULT_K = 10
"""Messages a ranked mechanism returns unless told otherwise, the same for all of them
(recent_k, bm25, the embeddings: equal budgets). At least the evidence of any question,
so that a perfect ranking can answer every one: memsim's aggregative questions count up
to 9 people or events, a message each (MemDaily's up to 8), which k = 5 cut off whatever
the ranking. recall@5 (the MemSim paper's figure) is reported beside recall@k."""


class Memory:
    """Base class: keeps every observed message; subclasses choose what to return."""

    name: ClassVar[str] = ""
    ranks: ClassVar[bool] = True
    """Whether ``retrieve`` returns a ranking whose top k can be scored."""
    control: ClassVar[bool] = False
    """Reads the labels (oracle, noise_only): a reference point, not a mechanism."""

    def __init__(self, k: int = DEFAULT_K) -> None:
        if k < 1:
            raise ValueError(f"k must be at least 1, not {k}")
        self.k = k
        self.messages: list[Message] = []
        self.labels = Labels(frozenset(), frozenset())

    def reset(self, labels: Labels) -> None:
        self.messages = []
        self.labels = labels

    def observe(self, message: Message) -> None:
        self.messages.append(message)

    def observe_all(self, messages: Sequence[Message]) -> None:
        """Observe ``messages`` in order: the same memory as one :meth:`observe` each
        (subclasses do it in one step; the benchmark writes a trajectory at once)."""
        for message in messages:
            self.observe(message)

    def retrieve(self, query: Query) -> list[Message]:
        raise NotImplementedError

    def describe(self) -> dict[str, object]:
        """Settings for the run's manifest."""
        return {"name": self.name, "k": self.k} if self.ranks else {"name": self.name}


MEMORY: Registry[type[Memory]] = registry("memory")


@MEMORY.register("no_memory")
class NoMemory(Memory):
    """Remembers nothing: the reader answers from the question and options alone."""

    name = "no_memory"

    def observe(self, message: Message) -> None:
        pass

    def observe_all(self, messages: Sequence[Message]) -> None:
        pass

    def retrieve(self, query: Query) -> list[Message]:
        return []


@MEMORY.register("full_context")
class FullContext(Memory):
    """Every message, oldest first (what a long-context model would be given)."""

    name = "full_context"
    ranks = False

    def observe_all(self, messages: Sequence[Message]) -> None:
        self.messages.extend(messages)

    def retrieve(self, query: Query) -> list[Message]:
        return list(self.messages)


@MEMORY.register("recent_k")
class RecentK(Memory):
    """The k most recent messages, most recent first."""

    name = "recent_k"

    def observe(self, message: Message) -> None:
        self.messages.append(message)
        if len(self.messages) > 4 * self.k:  # keep the window small on long trajectories
            del self.messages[: -self.k]

    def observe_all(self, messages: Sequence[Message]) -> None:
        self.messages = [*self.messages, *messages[-self.k :]][-self.k :]

    def retrieve(self, query: Query) -> list[Message]:
        return self.messages[-self.k :][::-1]


@MEMORY.register("oracle")
class Oracle(Memory):
    """Control: exactly the evidence messages, oldest first (recall 1 by construction)."""

    name = "oracle"
    control = True

    def observe(self, message: Message) -> None:
        if message.mid in self.labels.evidence:
            self.messages.append(message)

    def observe_all(self, messages: Sequence[Message]) -> None:
        evidence = self.labels.evidence
        self.messages.extend(m for m in messages if m.mid in evidence)

    def retrieve(self, query: Query) -> list[Message]:
        return list(self.messages)

    def describe(self) -> dict[str, object]:
        return {"name": self.name}


@MEMORY.register("noise_only")
class NoiseOnly(Memory):
    """Control: every infused noise message and nothing else, oldest first (empty at
    noise level 1): how a reader does with memory of the same form but no facts."""

    name = "noise_only"
    ranks = False
    control = True

    def observe(self, message: Message) -> None:
        if message.mid in self.labels.noise:
            self.messages.append(message)

    def observe_all(self, messages: Sequence[Message]) -> None:
        noise = self.labels.noise
        self.messages.extend(m for m in messages if m.mid in noise)

    def retrieve(self, query: Query) -> list[Message]:
        return list(self.messages)


def top_k(scores: list[float], k: int) -> list[int]:
    """Indices of the k highest scores; ties go to the later index (the more recent
    message), so the order never depends on anything but the scores and positions."""
    order = sorted(range(len(scores)), key=lambda i: (-scores[i], -i))
    return order[:k]
