/** Where the footer's "Free photo sets" link leads: that section of home (a constant of its own, so the layout bundle stays small). */
export const FREE_SETS_ID = 'free-sets';
