import { z } from "zod";
import { bodyFields, bodyRecord } from "../body-fields.ts";
import { graphql } from "../graphql.ts";
import { resultSchema } from "../result-schema.ts";
import { defineRoutes, typedRoute } from "../route.ts";
import { tagBodySchema, tagSchema } from "../schemas.ts";
import { pickList } from "./strategy-shapes.ts";

const TagTypeFields = graphql(`fragment TagTypeFields on TagType { name description icon color }`);
const TAG_TYPE_KEYS = ["name", "description", "icon", "color"] as const;
const tagTypeSchema = resultSchema(TagTypeFields);
const updateTagTypeBody = z.object({
  description: z.string().nullable().optional(),
  icon: z.string().nullable().optional(),
  color: z.string().nullable().optional(),
});
/** Unleash's tagTypeSchema (creating, validating) refuses other fields (400). */
const createTagTypeBody = z.strictObject({ ...updateTagTypeBody.shape, name: z.string() });
/** A bulk tagging body's `tags` object (empty when it has none). */
const tagsOf = (body: unknown) => bodyRecord(bodyRecord(body).tags);

const tagList = z.object({ version: z.literal(1), tags: z.array(tagSchema) });
const oneTag = z.object({ version: z.literal(1), tag: tagSchema });

export const tagRoutes = defineRoutes([
  typedRoute({
    method: "GET",
    path: "/api/admin/tag-types",
    tag: "Tags",
    summary: "List tag types",
    document: graphql(`query TagTypes { tagTypes { ...TagTypeFields } }`, [TagTypeFields]),
    respond: (data) => ({ version: 1, tagTypes: data.tagTypes }),
    schemas: { response: z.object({ version: z.literal(1), tagTypes: z.array(tagTypeSchema) }) },
    errors: [],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/tag-types/:name",
    tag: "Tags",
    summary: "Get one tag type",
    document: graphql(`query TagType($name: String!) { tagType(name: $name) { ...TagTypeFields } }`, [
      TagTypeFields,
    ]),
    variables: { name: "path.name" },
    respond: (data) => ({ version: 1, tagType: data.tagType }),
    schemas: { response: z.object({ version: z.literal(1), tagType: tagTypeSchema }) },
    errors: [404],
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/tag-types",
    tag: "Tags",
    summary: "Create a tag type",
    description: "201 with the tag type; 409 when the name is taken.",
    document: graphql(
      `mutation CreateTagType($input: CreateTagTypeInput!) { createTagType(input: $input) { ...TagTypeFields } }`,
      [TagTypeFields],
    ),
    variables: { input: { bodyFields: TAG_TYPE_KEYS } },
    status: 201,
    schemas: { body: createTagTypeBody, response: tagTypeSchema },
    errors: [400, 403, 409],
  }),
  typedRoute({
    method: "PUT",
    path: "/api/admin/tag-types/:name",
    tag: "Tags",
    summary: "Update a tag type",
    description: "Absent fields stay as they are. 200 without a body (Unleash).",
    document: graphql(
      `mutation UpdateTagType($name: String!, $input: UpdateTagTypeInput!) {
        updateTagType(name: $name, input: $input) { ...TagTypeFields } }`,
      [TagTypeFields],
    ),
    variables: { name: "path.name", input: { bodyFields: ["description", "icon", "color"] } },
    schemas: { body: updateTagTypeBody },
    emptyBody: true,
  }),
  typedRoute({
    method: "DELETE",
    path: "/api/admin/tag-types/:name",
    tag: "Tags",
    summary: "Delete a tag type",
    description: "Deletes its tags too, untagging every flag that carried them. 200 without a body.",
    document: graphql(
      `mutation DeleteTagType($name: String!) { deleteTagType(name: $name) { ...TagTypeFields } }`,
      [TagTypeFields],
    ),
    variables: { name: "path.name" },
    emptyBody: true,
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/tags",
    tag: "Tags",
    summary: "List tags",
    document: graphql("query Tags { tags { type value } }"),
    respond: (data) => ({ version: 1, tags: data.tags }),
    schemas: { response: tagList },
    errors: [],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/tags/:type",
    tag: "Tags",
    summary: "List the tags of one type",
    description: "An unknown type answers an empty list.",
    document: graphql("query TagsOfType($type: String!) { tags(type: $type) { type value } }"),
    variables: { type: "path.type" },
    respond: (data) => ({ version: 1, tags: data.tags }),
    schemas: { response: tagList },
    errors: [],
  }),
  typedRoute({
    method: "GET",
    path: "/api/admin/tags/:type/:value",
    tag: "Tags",
    summary: "Get one tag",
    document: graphql(
      "query Tag($type: String!, $value: String!) { tag(type: $type, value: $value) { type value } }",
    ),
    variables: { type: "path.type", value: "path.value" },
    respond: (data) => ({ version: 1, tag: data.tag }),
    schemas: { response: oneTag },
    errors: [404],
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/tags",
    tag: "Tags",
    summary: "Create a tag",
    description: "201 with `{version, tag}`; 404 for an unknown type; 409 when the tag exists.",
    document: graphql(
      "mutation CreateTag($input: CreateTagInput!) { createTag(input: $input) { type value } }",
    ),
    variables: { input: { bodyFields: ["type", "value"] } },
    respond: (data) => ({ version: 1, tag: data.createTag }),
    status: 201,
    schemas: { body: tagBodySchema, response: oneTag },
    errors: [400, 403, 404, 409],
  }),
  typedRoute({
    method: "DELETE",
    path: "/api/admin/tags/:type/:value",
    tag: "Tags",
    summary: "Delete a tag",
    description: "Untags every flag that carried it. 200 without a body.",
    document: graphql(`mutation DeleteTag($type: String!, $value: String!) {
      deleteTag(type: $type, value: $value) { type value } }`),
    variables: { type: "path.type", value: "path.value" },
    emptyBody: true,
  }),
  typedRoute({
    method: "POST",
    path: "/api/admin/tag-types/validate",
    tag: "Tags",
    summary: "Check a tag type before creating it",
    description: "`{valid: true, tagType}` when valid and free; 400 malformed; 409 name taken.",
    document: graphql(
      `query ValidateTagType($input: CreateTagTypeInput!) { validateTagType(input: $input) }`,
    ),
    variables: { input: { bodyFields: TAG_TYPE_KEYS } },
    // Unleash answers the tag type it was given.
    respond: (data, { body }) => ({ valid: data.validateTagType, tagType: bodyFields(body, TAG_TYPE_KEYS) }),
    schemas: {
      body: createTagTypeBody,
      response: z.object({
        valid: z.boolean(),
        tagType: z.object({
          name: z.string(),
          description: z.string().nullish(),
          icon: z.string().nullish(),
          color: z.string().nullish(),
        }),
      }),
    },
    errors: [400, 403, 409],
  }),
  typedRoute({
    method: "PUT",
    path: "/api/admin/projects/:projectId/tags",
    tag: "Tags",
    summary: "Add and remove tags on several flags",
    description:
      "Body `{features, tags: {addedTags, removedTags}}`; all or nothing (an unknown flag is 404, nothing changes). 200, no body.",
    document:
      graphql(`mutation BulkTagFeatures($project: String!, $features: [String!]!, $addedTags: [TagInput!]!, $removedTags: [TagInput!]!) {
      updateProjectFeaturesTags(project: $project, features: $features, addedTags: $addedTags, removedTags: $removedTags) }`),
    bodyPaths: { addedTags: "tags.addedTags", removedTags: "tags.removedTags" },
    variables: {
      project: "path.projectId",
      features: "body.features",
      // The tags sit in `tags`; a tag's `color` is accepted and ignored.
      addedTags: ({ body }) => pickList(tagsOf(body).addedTags, ["type", "value"]),
      removedTags: ({ body }) => pickList(tagsOf(body).removedTags, ["type", "value"]),
    },
    emptyBody: true,
    schemas: {
      body: z.strictObject({
        features: z.array(z.string().min(1)),
        tags: z.strictObject({ addedTags: z.array(tagBodySchema), removedTags: z.array(tagBodySchema) }),
      }),
    },
  }),
]);
