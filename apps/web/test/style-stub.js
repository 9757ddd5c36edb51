/** Stylesheets imported by modules under test mean nothing to jsdom. */
export default {};
