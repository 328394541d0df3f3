//! Query strings read by hand, for the parameters the web and mobile clients send in more
//! than one shape: `idServices=[1,2]`, `idServices=1&idServices=2`, `idServices[]=1`, or
//! `idServices=1,2`, and empty values for "not chosen".

use navalha_platform::ApiError;

/// The decoded `name=value` pairs of a query string.
#[derive(Debug, Default)]
pub struct Params(Vec<(String, String)>);

impl Params {
    /// Decodes a raw query string (`None` when the request has none).
    pub fn parse(raw: Option<&str>) -> Result<Self, ApiError> {
        serde_urlencoded::from_str(raw.unwrap_or_default())
            .map(Self)
            .map_err(|_| ApiError::BadRequest("Parâmetros da consulta inválidos.".to_owned()))
    }

    /// The first non-empty value of `name` (or `name[]`).
    pub fn text(&self, name: &str) -> Option<&str> {
        self.values(name).into_iter().next()
    }

    fn values(&self, name: &str) -> Vec<&str> {
        self.0
            .iter()
            .filter(|(key, _)| key == name || key.strip_suffix("[]") == Some(name))
            .map(|(_, value)| value.trim())
            .filter(|value| !value.is_empty() && *value != "null" && *value != "undefined")
            .collect()
    }

    /// An optional whole number; a value that is not one is 400 naming the parameter.
    pub fn id(&self, name: &str) -> Result<Option<i64>, ApiError> {
        self.text(name).map(|text| text.parse().map_err(|_| bad(name))).transpose()
    }

    /// Every id given for `name`, in order and without repeats, in any of the shapes above.
    pub fn ids(&self, name: &str) -> Result<Vec<i64>, ApiError> {
        let mut ids = Vec::new();
        for value in self.values(name) {
            let inner = value.strip_prefix('[').and_then(|v| v.strip_suffix(']')).unwrap_or(value);
            for part in inner.split(',').map(str::trim).filter(|p| !p.is_empty()) {
                let id: i64 = part.trim_matches('"').parse().map_err(|_| bad(name))?;
                if !ids.contains(&id) {
                    ids.push(id);
                }
            }
        }
        Ok(ids)
    }
}

fn bad(name: &str) -> ApiError {
    ApiError::BadRequest(format!("Parâmetro {name} inválido."))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(query: &str) -> Vec<i64> {
        Params::parse(Some(query)).and_then(|p| p.ids("idServices")).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn lists_come_as_json_repeated_bracketed_or_comma_separated() {
        assert_eq!(ids("idServices=%5B1%2C2%5D"), [1, 2]);
        assert_eq!(ids("idServices=[3,4]"), [3, 4]);
        assert_eq!(ids("idServices=1&idServices=2&idServices=1"), [1, 2]);
        assert_eq!(ids("idServices[]=5&idServices%5B%5D=6"), [5, 6]);
        assert_eq!(ids("idServices=7,8&other=1"), [7, 8]);
        assert_eq!(ids("idServices=&idServices=[]"), Vec::<i64>::new());
        assert!(Params::parse(Some("idServices=[1,x]")).and_then(|p| p.ids("idServices")).is_err());
    }

    #[test]
    fn empty_values_are_absent() {
        let params = Params::parse(Some("idProfessional=&idUser=null&idCompany=3")).unwrap_or_default();
        assert_eq!(params.id("idProfessional").ok(), Some(None));
        assert_eq!(params.id("idUser").ok(), Some(None));
        assert_eq!(params.id("idCompany").ok(), Some(Some(3)));
        assert!(params.id("page").is_ok_and(|p| p.is_none()));
        let bad = Params::parse(Some("idCompany=abc")).unwrap_or_default();
        assert!(bad.id("idCompany").is_err());
    }
}
