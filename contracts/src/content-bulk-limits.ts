/**
 * How many items one bulk change of the console's Content screen takes (POST
 * /api/admin/content/bulk). No zod here: the console imports it ("Select all matching").
 */
export const BULK_MAX = 100;
