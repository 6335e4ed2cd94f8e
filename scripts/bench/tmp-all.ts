import { everyAnswer } from "./many.js";
console.log(await everyAnswer({ out: "/tmp/bench-many-vdfppw/dist", state: "/tmp/bench-many-vdfppw/state" }));
