import leaked from "../../fixtures.json";
export const helper = () => leaked;
