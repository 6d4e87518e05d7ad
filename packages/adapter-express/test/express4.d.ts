// `express4` is Express 4 installed under an alias, to run the conformance suite on both majors.
declare module 'express4' {
  import express from 'express';
  export default express;
}
