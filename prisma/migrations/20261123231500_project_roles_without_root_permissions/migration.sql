-- Project (custom) roles can no longer hold root permissions: a project-scoped grant of ADMIN
-- passed every check everywhere. Roles created before that rule lose those permissions.
DELETE FROM "RolePermission" rp
USING "Role" r, "Permission" p
WHERE rp."roleId" = r.id
  AND p.name = rp."permissionName"
  AND r.type = 'custom'
  AND p.type = 'root';
