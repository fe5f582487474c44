#!/usr/bin/env node
export default async function () {
  return "hashbang";
}
