/** The kinds of rows in the jobs table (the outbox/queue, jobs-repo.ts). */
export const JOB_KINDS = {
  fulfilOrder: 'fulfil_order',
  deliverCallback: 'deliver_callback',
} as const;
