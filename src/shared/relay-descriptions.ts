import { type GraphQLSchema, isObjectType } from "graphql";

const PAGE_INFO: Record<string, string> = {
  hasNextPage: "Whether more items follow this page.",
  hasPreviousPage: "Whether items precede this page.",
  startCursor: "Cursor of the first item of this page.",
  endCursor: "Cursor of the last item of this page; pass it as `after` for the next page.",
};

/**
 * The Relay plugin generates connection, edge and PageInfo types without descriptions; the
 * printed SDL is the reference, so give them the standard ones.
 */
export function describeRelayTypes(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type)) continue;
    const fields = type.getFields();
    if (type.name === "PageInfo") {
      type.description ??= "Where a page sits in the whole list (Relay).";
      for (const [name, text] of Object.entries(PAGE_INFO))
        if (fields[name]) fields[name].description ??= text;
    } else if (type.name.endsWith("Connection") && fields.edges && fields.pageInfo) {
      const item = type.name.slice(0, -"Connection".length);
      type.description ??= `A page of ${item} items (Relay connection).`;
      fields.edges.description ??= "The items of this page, each with its cursor.";
      fields.pageInfo.description ??= "Paging information.";
    } else if (type.name.endsWith("Edge") && fields.node && fields.cursor) {
      const item = type.name.slice(0, -"Edge".length);
      type.description ??= `One ${item} in a page, with its cursor.`;
      fields.node.description ??= `The ${item}.`;
      fields.cursor.description ??= "Opaque position of this item; pass it as `after` to continue.";
    }
  }
  return schema;
}
