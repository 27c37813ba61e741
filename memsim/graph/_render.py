"""Draw a BRNet so a user can see its dependencies (matplotlib, an optional extra)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING

from memsim._io import atomic_write_bytes
from memsim.graph._brnet import BRNet
from memsim.graph._pgmpy import MissingExtraError

if TYPE_CHECKING:
    import networkx as nx


def attribute_graph(net: BRNet) -> nx.DiGraph[str]:
    """The network with an entity kind's slots folded together: one node per
    ``kind.attr``, an edge wherever any slot depends on any slot."""
    import networkx as nx  # only drawing needs it (see memsim.schema._order)

    folded: nx.DiGraph[str] = nx.DiGraph()
    for node in net:
        folded.add_node(f"{node.key.kind}.{node.key.attr}", kind=node.key.kind)
    for parent, child in net.graph.edges():
        p, c = net[parent].key, net[child].key
        if (p.kind, p.attr) != (c.kind, c.attr):
            folded.add_edge(f"{p.kind}.{p.attr}", f"{c.kind}.{c.attr}")
    return folded


def render_network(net: BRNet, out: str | Path, slots: bool = False) -> None:
    """Write an SVG or PNG (by the file's suffix) of the network, atomically."""
    out = Path(out)
    fmt = out.suffix.lower().lstrip(".")
    if fmt not in ("svg", "png"):
        raise ValueError(f"{out}: the picture must end in .svg or .png")
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise MissingExtraError("rendering needs matplotlib: pip install 'memsim[viz]'") from exc
    import networkx as nx

    graph = net.graph.copy() if slots else attribute_graph(net)
    kinds = {n: (net[n].key.kind if slots else n.split(".")[0]) for n in graph}
    kind_names = list(dict.fromkeys(kinds.values()))
    for layer, nodes in enumerate(nx.topological_generations(graph)):
        for n in nodes:
            graph.nodes[n]["layer"] = layer
    # one column per layer; within a column, each kind's nodes stay together
    rank = {k: i for i, k in enumerate(kind_names)}
    columns: dict[int, list[str]] = {}
    for n in sorted(graph, key=lambda n: (rank[kinds[n]], n)):
        columns.setdefault(graph.nodes[n]["layer"], []).append(n)
    pos = {
        n: (float(x), (len(col) - 1) / 2 - i)
        for x, col in columns.items()
        for i, n in enumerate(col)
    }
    cmap = plt.get_cmap("tab10")
    colors = [cmap(kind_names.index(kinds[n]) % 10) for n in graph]
    layers = 1 + max((graph.nodes[n]["layer"] for n in graph), default=0)
    tallest = max(
        (sum(1 for n in graph if graph.nodes[n]["layer"] == i) for i in range(layers)), default=1
    )
    fig, ax = plt.subplots(figsize=(max(8, 3.2 * layers), max(6, 0.32 * tallest)))
    nx.draw_networkx_edges(graph, pos, ax=ax, alpha=0.35, arrowsize=8, node_size=300)
    nx.draw_networkx_nodes(graph, pos, ax=ax, node_color=colors, node_size=120)
    nx.draw_networkx_labels(
        graph,
        pos,
        ax=ax,
        font_size=7,
        labels={n: n.split(".", 1)[1] if not slots else n for n in graph},
        verticalalignment="bottom",
    )
    for i, kind in enumerate(kind_names):
        ax.scatter([], [], color=cmap(i % 10), label=kind)
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8, frameon=False)
    ax.set_title(
        f"{net.schema.name} {net.schema.version}: {graph.number_of_nodes()} nodes, "
        f"{graph.number_of_edges()} edges"
    )
    ax.axis("off")
    buffer = io.BytesIO()
    # no date in the metadata keeps the picture byte-identical between runs
    fig.savefig(
        buffer,
        format=fmt,
        bbox_inches="tight",
        dpi=110,
        metadata={"Date": None} if fmt == "svg" else {"Software": None},
    )
    plt.close(fig)
    atomic_write_bytes(out, buffer.getvalue())
