// A thin C layer between BindGraph and libgvc/libcgraph.
//
// Why it exists:
// - Swift 6 rejects references to C global variables such as `Agdirected` (not concurrency-safe).
// - cgraph takes `char *` everywhere although it copies the strings; these take `const char *`.
// - `gvRenderData`'s length is `unsigned int *` up to Graphviz 12 and `size_t *` from 13;
//   `bind_gv_render` always reports a `size_t`.
// None of these functions is thread-safe: the caller serialises every call (Graphviz is not).
#ifndef CGRAPHVIZSHIM_H
#define CGRAPHVIZSHIM_H

#include <stddef.h>
#include <gvc.h>

/// A new, empty, non-strict directed root graph (`agopen(name, Agdirected, NULL)`).
Agraph_t *_Nullable bind_gv_open_digraph(const char *_Nonnull name);

/// The subgraph `name` of `graph`, created if needed. Name it `cluster…` to draw a box.
Agraph_t *_Nullable bind_gv_subgraph(Agraph_t *_Nonnull graph, const char *_Nonnull name);

/// A node of the root graph named `name`, created if needed; `NULL` name creates an anonymous node.
Agnode_t *_Nullable bind_gv_node(Agraph_t *_Nonnull graph, const char *_Nullable name);

/// Makes the existing node `node` a member of `subgraph` as well.
Agnode_t *_Nullable bind_gv_add_to_subgraph(Agraph_t *_Nonnull subgraph, Agnode_t *_Nonnull node);

/// A new anonymous edge from `tail` to `head` (parallel edges are kept).
Agedge_t *_Nullable bind_gv_edge(Agraph_t *_Nonnull graph, Agnode_t *_Nonnull tail, Agnode_t *_Nonnull head);

/// Declares the default value of a graph (kind 0), node (1) or edge (2) attribute for the whole graph.
/// Returns 0 on success.
int bind_gv_declare(Agraph_t *_Nonnull graph, int kind, const char *_Nonnull name, const char *_Nonnull value);

/// Sets a plain string attribute on a graph, node or edge (`agsafeset` with default ""). Returns 0 on success.
int bind_gv_set(void *_Nonnull object, const char *_Nonnull name, const char *_Nonnull value);

/// Sets an HTML-like label attribute. Returns 1 when the stored value is marked as HTML, 0 when
/// cgraph's string pool handed back an identical plain string instead, -1 on failure.
int bind_gv_set_html(
    Agraph_t *_Nonnull root, void *_Nonnull object, const char *_Nonnull name, const char *_Nonnull html);

/// Routes every cgraph/gvc message (warnings and errors) to `handler` instead of stderr.
/// Process-wide: Graphviz keeps one handler for everything.
void bind_gv_install_message_handler(int (*_Nonnull handler)(char *_Nonnull));

/// Forgets the error count Graphviz keeps between calls.
void bind_gv_reset_errors(void);

/// Renders a laid-out graph into a buffer that the caller frees with `gvFreeRenderData`.
int bind_gv_render(
    GVC_t *_Nonnull context, Agraph_t *_Nonnull graph, const char *_Nonnull format, char *_Nullable *_Nonnull data,
    size_t *_Nonnull length);

#endif
