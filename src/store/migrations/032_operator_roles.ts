import { sql, type Kysely } from 'kysely';

/**
 * Issue 37, operator roles: the roles each operator holds, one row a role. Every operator
 * that exists when this runs holds everything it could do before, so it becomes an owner
 * and no installation loses access.
 */
export const operatorRoles = {
  async up(db: Kysely<any>): Promise<void> {
    await db.schema
      .createTable('operator_roles')
      .addColumn('operator_id', 'text', (c) => c.notNull().references('operators.id').onDelete('cascade'))
      .addColumn('role', 'text', (c) => c.notNull()) // owner | finance | support | catalog | viewer
      .addPrimaryKeyConstraint('operator_roles_pk', ['operator_id', 'role'])
      .execute();
    await db.schema.createIndex('operator_roles_role').on('operator_roles').columns(['role', 'operator_id']).execute();
    await sql`insert into operator_roles (operator_id, role) select id, 'owner' from operators`.execute(db);
  },
};
