#include "CGraphvizShim.h"

#include <graphviz_version.h>

Agraph_t *bind_gv_open_digraph(const char *name) { return agopen((char *)name, Agdirected, NULL); }

Agraph_t *bind_gv_subgraph(Agraph_t *graph, const char *name) { return agsubg(graph, (char *)name, 1); }

Agnode_t *bind_gv_node(Agraph_t *graph, const char *name) { return agnode(graph, (char *)name, 1); }

Agnode_t *bind_gv_add_to_subgraph(Agraph_t *subgraph, Agnode_t *node) { return agsubnode(subgraph, node, 1); }

Agedge_t *bind_gv_edge(Agraph_t *graph, Agnode_t *tail, Agnode_t *head) { return agedge(graph, tail, head, NULL, 1); }

int bind_gv_declare(Agraph_t *graph, int kind, const char *name, const char *value) {
    return agattr(graph, kind, (char *)name, (char *)value) == NULL ? -1 : 0;
}

int bind_gv_set(void *object, const char *name, const char *value) {
    return agsafeset(object, (char *)name, (char *)value, "");
}

int bind_gv_set_html(Agraph_t *root, void *object, const char *name, const char *html) {
    // agsafeset copies through the string pool, which returns this pooled (HTML-marked) string.
    char *pooled = agstrdup_html(root, (char *)html);
    if (pooled == NULL) {
        return -1;
    }
    int status = agsafeset(object, (char *)name, pooled, "");
    int isHTML = aghtmlstr(pooled) ? 1 : 0;
    agstrfree(root, pooled);
    return status == 0 ? isHTML : -1;
}

void bind_gv_install_message_handler(int (*handler)(char *)) {
    agseterrf(handler);
    agseterr(AGWARN);
}

void bind_gv_reset_errors(void) { agreseterrors(); }

int bind_gv_render(GVC_t *context, Agraph_t *graph, const char *format, char **data, size_t *length) {
#if defined(GRAPHVIZ_VERSION_MAJOR) && GRAPHVIZ_VERSION_MAJOR >= 13
    size_t count = 0;
#else
    unsigned int count = 0;
#endif
    *data = NULL;
    int status = gvRenderData(context, graph, format, data, &count);
    *length = (size_t)count;
    return status;
}
