import { z } from "zod";
import { bodyFields } from "../body-fields.ts";
import { defineRoutes } from "../route.ts";
import { tagBodySchema, tagSchema } from "../schemas.ts";
import { pickList } from "./strategy-shapes.ts";

const TAG_TYPE_FIELDS = "name description icon color";
const tagTypeSchema = z.object({
  name: z.string(),
  description: z.string().nullable(),
  icon: z.string().nullable(),
  color: z.string().nullable(),
});
const updateTagTypeBody = z.object({
  description: z.string().nullable().optional(),
  icon: z.string().nullable().optional(),
  color: z.string().nullable().optional(),
});
/** Unleash's tagTypeSchema (creating, validating) refuses other fields (400). */
const createTagTypeBody = z.strictObject({ ...updateTagTypeBody.shape, name: z.string() });
const tagList = z.object({ version: z.literal(1), tags: z.array(tagSchema) });
const oneTag = z.object({ version: z.literal(1), tag: tagSchema });

export const tagRoutes = defineRoutes([
  {
    method: "GET",
    path: "/api/admin/tag-types",
    tag: "Tags",
    summary: "List tag types",
    document: `query TagTypes { tagTypes { ${TAG_TYPE_FIELDS} } }`,
    respond: (data) => ({ version: 1, tagTypes: data.tagTypes }),
    schemas: { response: z.object({ version: z.literal(1), tagTypes: z.array(tagTypeSchema) }) },
    errors: [],
  },
  {
    method: "GET",
    path: "/api/admin/tag-types/:name",
    tag: "Tags",
    summary: "Get one tag type",
    document: `query TagType($name: String!) { tagType(name: $name) { ${TAG_TYPE_FIELDS} } }`,
    variables: ({ params }) => ({ name: params.name }),
    respond: (data) => ({ version: 1, tagType: data.tagType }),
    schemas: { response: z.object({ version: z.literal(1), tagType: tagTypeSchema }) },
    errors: [404],
  },
  {
    method: "POST",
    path: "/api/admin/tag-types",
    tag: "Tags",
    summary: "Create a tag type",
    description: "201 with the tag type; 409 when the name is taken.",
    document: `mutation CreateTagType($input: CreateTagTypeInput!) { createTagType(input: $input) { ${TAG_TYPE_FIELDS} } }`,
    variables: ({ body }) => ({ input: bodyFields(body, ["name", "description", "icon", "color"]) }),
    status: 201,
    schemas: { body: createTagTypeBody, response: tagTypeSchema },
    errors: [400, 403, 409],
  },
  {
    method: "PUT",
    path: "/api/admin/tag-types/:name",
    tag: "Tags",
    summary: "Update a tag type",
    description: "Absent fields stay as they are. 200 without a body (Unleash).",
    document: `mutation UpdateTagType($name: String!, $input: UpdateTagTypeInput!) {
      updateTagType(name: $name, input: $input) { ${TAG_TYPE_FIELDS} }
    }`,
    variables: ({ params, body }) => ({
      name: params.name,
      input: bodyFields(body, ["description", "icon", "color"]),
    }),
    schemas: { body: updateTagTypeBody },
    emptyBody: true,
  },
  {
    method: "DELETE",
    path: "/api/admin/tag-types/:name",
    tag: "Tags",
    summary: "Delete a tag type",
    description: "Deletes its tags too, untagging every flag that carried them. 200 without a body.",
    document: `mutation DeleteTagType($name: String!) { deleteTagType(name: $name) { ${TAG_TYPE_FIELDS} } }`,
    variables: ({ params }) => ({ name: params.name }),
    emptyBody: true,
  },
  {
    method: "GET",
    path: "/api/admin/tags",
    tag: "Tags",
    summary: "List tags",
    document: "query Tags { tags { type value } }",
    respond: (data) => ({ version: 1, tags: data.tags }),
    schemas: { response: tagList },
    errors: [],
  },
  {
    method: "GET",
    path: "/api/admin/tags/:type",
    tag: "Tags",
    summary: "List the tags of one type",
    description: "An unknown type answers an empty list.",
    document: "query TagsOfType($type: String!) { tags(type: $type) { type value } }",
    variables: ({ params }) => ({ type: params.type }),
    respond: (data) => ({ version: 1, tags: data.tags }),
    schemas: { response: tagList },
    errors: [],
  },
  {
    method: "GET",
    path: "/api/admin/tags/:type/:value",
    tag: "Tags",
    summary: "Get one tag",
    document: "query Tag($type: String!, $value: String!) { tag(type: $type, value: $value) { type value } }",
    variables: ({ params }) => ({ type: params.type, value: params.value }),
    respond: (data) => ({ version: 1, tag: data.tag }),
    schemas: { response: oneTag },
    errors: [404],
  },
  {
    method: "POST",
    path: "/api/admin/tags",
    tag: "Tags",
    summary: "Create a tag",
    description: "201 with `{version, tag}`; 404 for an unknown type; 409 when the tag exists.",
    document: "mutation CreateTag($input: CreateTagInput!) { createTag(input: $input) { type value } }",
    variables: ({ body }) => ({ input: bodyFields(body, ["type", "value"]) }),
    respond: (data) => ({ version: 1, tag: data.createTag }),
    status: 201,
    schemas: { body: tagBodySchema, response: oneTag },
    errors: [400, 403, 404, 409],
  },
  {
    method: "DELETE",
    path: "/api/admin/tags/:type/:value",
    tag: "Tags",
    summary: "Delete a tag",
    description: "Untags every flag that carried it. 200 without a body.",
    document: `mutation DeleteTag($type: String!, $value: String!) {
      deleteTag(type: $type, value: $value) { type value }
    }`,
    variables: ({ params }) => ({ type: params.type, value: params.value }),
    emptyBody: true,
  },
  {
    method: "POST",
    path: "/api/admin/tag-types/validate",
    tag: "Tags",
    summary: "Check a tag type before creating it",
    description: "`{valid: true, tagType}` when valid and free; 400 malformed; 409 name taken.",
    document: `query ValidateTagType($input: CreateTagTypeInput!) { validateTagType(input: $input) }`,
    variables: ({ body }) => ({ input: bodyFields(body, ["name", "description", "icon", "color"]) }),
    respond: (data, { body }) => ({
      valid: data.validateTagType,
      tagType: bodyFields(body, ["name", "description", "icon", "color"]),
    }),
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
  },
  {
    method: "PUT",
    path: "/api/admin/projects/:projectId/tags",
    tag: "Tags",
    summary: "Add and remove tags on several flags",
    description:
      "Body `{features, tags: {addedTags, removedTags}}`; all or nothing (an unknown flag is 404, nothing changes). 200, no body.",
    document: `mutation BulkTagFeatures($project: String!, $features: [String!]!, $addedTags: [TagInput!]!, $removedTags: [TagInput!]!) {
      updateProjectFeaturesTags(project: $project, features: $features, addedTags: $addedTags, removedTags: $removedTags) }`,
    bodyPaths: { addedTags: "tags.addedTags", removedTags: "tags.removedTags" },
    variables: ({ params, body }) => {
      const b = (body ?? {}) as { features?: unknown; tags?: { addedTags?: unknown; removedTags?: unknown } };
      return {
        project: params.projectId,
        features: b.features,
        addedTags: pickList(b.tags?.addedTags, ["type", "value"]),
        removedTags: pickList(b.tags?.removedTags, ["type", "value"]),
      };
    },
    emptyBody: true,
    schemas: {
      body: z.strictObject({
        features: z.array(z.string().min(1)),
        tags: z.strictObject({ addedTags: z.array(tagBodySchema), removedTags: z.array(tagBodySchema) }),
      }),
    },
  },
]);
