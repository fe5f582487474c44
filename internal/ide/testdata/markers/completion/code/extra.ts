// not any tool's page
const Y = "https://unbound.example.org/y";
